// The three-byte opcode maps 0F38 and 0F3A (Intel SDM volume 2, Appendix A, Tables ): SSSE3, SSE4,
// AES, SHA and the VEX-encoded AVX2, FMA and BMI opcodes. No Pentium 4 has any of them; the table gives their
// extension (each one's CPUID flag decides whether the emulated model lacks it), their class, and the operands of
// the few forms the host's C library runs (string functions) when the guest sees the host's CPUID.
#include "emulator/x86/opcode_table.h"
#include "emulator/x86/operand_rules.h"

namespace netburst::emu::x86ops {

namespace {

using namespace rules;
using namespace row_names;

// An extension's opcode with 66; without it, anything else of the map counts as the map's first extension, SSSE3.
constexpr ByPrefix<E> with66(E e) { return {E::Ssse3, e, E::Ssse3, E::Ssse3}; }

// movbe r, m and movbe m, r.
void movbe_load(Builder& b) { b.read_E(G); b.write_G(G, b.opsize()); }
void movbe_store(Builder& b) { b.read_G(G, b.opsize()); b.write_E(G, b.opsize()); }
// pcmpestrm, pcmpestri, pcmpistrm, pcmpistri: explicit lengths in rax and rdx for the "e" forms; the index goes to
// ecx, the mask to xmm0.
template <bool ExplicitLengths, bool Index>
void pcmpstr(Builder& b) {
    b.read_E(X);
    b.read_G(X);
    if (ExplicitLengths) b.read_gprs(reg_gpr(kRax) | reg_gpr(kRdx));
    if (Index) b.write_gpr(kRcx, 4);
    else b.write_xmm(0);
    b.write_flags();
}

// BMI1/BMI2 (VEX, general registers; vvvv names a general register).
void andn(Builder& b) {  // r = ~vvvv & r/m
    b.read_gpr(b.d().vvvv);
    b.read_E(G, b.opsize());
    b.write_G(G, b.opsize());
    b.write_flags();
}
void bmi_group17(Builder& b) {  // blsr, blsmsk, blsi: vvvv = f(r/m)
    b.read_E(G, b.opsize());
    b.write_gpr(b.d().vvvv, b.opsize());
    b.write_flags();
}
void mulx(Builder& b) {  // rdx * r/m into reg:vvvv, flags kept
    b.read_E(G, b.opsize());
    b.read_gpr(kRdx);
    b.write_G(G, b.opsize());
    b.write_gpr(b.d().vvvv, b.opsize());
}
void bmi_shift(Builder& b) {  // pdep, pext, sarx, shlx, shrx: r = f(r/m, vvvv), flags kept
    b.read_E(G, b.opsize());
    b.read_gpr(b.d().vvvv);  // the index, mask, count or control
    b.write_G(G, b.opsize());
}
void bmi_flags(Builder& b) { bmi_shift(b); b.write_flags(); }  // bzhi, bextr
void rorx(Builder& b) { b.read_E(G, b.opsize()); b.write_G(G, b.opsize()); }

constexpr OpcodeRow k0F38Rows[] = {
    // VEX F0 and up: BMI on general registers.
    R(0xF0, 0xF1).vex().pp(PF2),
    R(0xF0, 0xF1).vex().cls(kSimdInt),
    R(0xF2).vex().vex_ops(andn),
    R(0xF3).vex().reg(1, 2, 3).vex_ops(bmi_group17),
    R(0xF5).vex().pp(P0).vex_ops(bmi_flags),                                         // bzhi
    R(0xF5).vex().vex_ops(bmi_shift),                                                // pdep, pext
    R(0xF6).vex().pp(PF2).vex_ops(mulx),
    R(0xF7).vex().pp(P0).vex_ops(bmi_flags),                                         // bextr
    R(0xF7).vex().vex_ops(bmi_shift),                                                // shlx, sarx, shrx
    R(0xF2, 0xFF).vex(),

    R(0x00).pp(P0 | P66).cls(kSimdInt).ext(E::Ssse3).ops(rmw_v).vex_ops(nds),  // pshufb
    R(0x00).cls(kSimdInt).ext(E::Ssse3).vex_ops(nds),
    R(0x04).cls(kSimdInt).ext(E::Ssse3).vex_ops(nds),                                // pmaddubsw
    R(0x0B).cls(kSimdInt).ext(E::Ssse3).vex_ops(nds),                                // pmulhrsw
    // vpermilps/pd, vtestps/pd (and FMA below): floating point, the width from VEX.W (not decoded here), so counted
    // as packed single precision.
    R(0x0C, 0x0F).cls(C::SsePackedSp).ext(E::Ssse3),
    R(0x10).cls(kSimdInt).ext(with66(E::Sse41)),                                     // pblendvb
    R(0x14).cls(C::SsePackedSp).ext(with66(E::Sse41)),                               // blendvps
    R(0x15).cls(C::SsePackedDp).ext(with66(E::Sse41)),                               // blendvpd
    R(0x17).pp(P66).cls(kSimdInt).ext(E::Sse41).both_ops(compare_x),                      // ptest
    R(0x17).cls(kSimdInt).ext(E::Ssse3).vex_ops(compare_x),
    R(0x18, 0x19).cls(C::SimdMove).ext(E::Ssse3).vex_ops(overwrite<X, X>),           // vbroadcastss/sd
    R(0x1A).cls(C::SimdMove).ext(E::Ssse3),                                          // vbroadcastf128
    R(0x1C, 0x1E).cls(kSimdInt).ext(E::Ssse3).vex_ops(overwrite<X, X>),              // pabsb/w/d
    R(0x20, 0x25).cls(kSimdInt).ext(with66(E::Sse41)),                               // pmovsx*
    R(0x28).cls(kSimdInt).ext(with66(E::Sse41)),                                     // pmuldq
    R(0x29).cls(kSimdInt).ext(with66(E::Sse41)).vex_ops(nds),                        // pcmpeqq
    R(0x2A).cls(C::SimdMove).ext(with66(E::Sse41)),                                  // movntdqa
    R(0x2B).cls(kSimdInt).ext(with66(E::Sse41)),                                     // packusdw
    R(0x30, 0x35).cls(kSimdInt).ext(with66(E::Sse41)),                               // pmovzx*
    R(0x37).cls(kSimdInt).ext(with66(E::Sse42)).vex_ops(nds),                        // pcmpgtq
    R(0x38, 0x40).cls(kSimdInt).ext(with66(E::Sse41)).vex_ops(nds),                  // pmin*, pmax*, pmulld
    R(0x41).cls(kSimdInt).ext(with66(E::Sse41)),                                     // phminposuw
    R(0x58, 0x59).cls(kSimdInt).ext(E::Ssse3).vex_ops(overwrite<X, X>),              // vpbroadcastd/q
    R(0x78, 0x79).cls(kSimdInt).ext(E::Ssse3).vex_ops(overwrite<X, X>),              // vpbroadcastb/w
    R(0x96, 0xBF).cls(C::SsePackedSp).ext(E::Ssse3),                                 // FMA
    R(0xC8, 0xCD).cls(kSimdInt).ext(E::Sha, E::Ssse3, E::Ssse3, E::Ssse3),
    R(0xCF).cls(kSimdInt).ext(with66(E::Gfni)),
    R(0xDB, 0xDF).cls(kSimdInt).ext(with66(E::Aes)),
    R(0xF0, 0xF1).pp(PF2).ext(E::Sse42),                                             // crc32
    R(0xF0).pp(P0 | P66).mem().ext(E::Movbe).ops(movbe_load),
    R(0xF1).pp(P0 | P66).mem().ext(E::Movbe).ops(movbe_store),
    R(0xF0, 0xF1).ext(E::Movbe),
    R(0xF6).cls(kSimdInt).ext(E::Ssse3, E::Adx, E::Adx, E::Ssse3),                   // adcx, adox
    R(0x00, 0xFF).cls(kSimdInt).ext(E::Ssse3),                                       // psign*, phadd*...
};

constexpr OpcodeRow k0F3ARows[] = {
    R(0x08).cls(C::SsePackedSp).ext(with66(E::Sse41)),                               // roundps
    R(0x09).cls(C::SsePackedDp).ext(with66(E::Sse41)),                               // roundpd
    R(0x0A).cls(C::SseScalarSp).ext(with66(E::Sse41)),                               // roundss
    R(0x0B).cls(C::SseScalarDp).ext(with66(E::Sse41)),                               // roundsd
    R(0x0C).cls(C::SsePackedSp).ext(with66(E::Sse41)),                               // blendps
    R(0x0D).cls(C::SsePackedDp).ext(with66(E::Sse41)),                               // blendpd
    R(0x0E).cls(kSimdInt).ext(with66(E::Sse41)),                                     // pblendw
    R(0x0F).pp(P0 | P66).cls(kSimdInt).ext(E::Ssse3).ops(rmw_v).vex_ops(nds), // palignr
    R(0x0F).cls(kSimdInt).ext(E::Ssse3).vex_ops(nds),
    R(0x14, 0x16).cls(kSimdInt).ext(with66(E::Sse41)),                               // pextrb/w/d
    R(0x17).cls(C::SsePackedSp).ext(with66(E::Sse41)),                               // extractps
    R(0x20).cls(kSimdInt).ext(with66(E::Sse41)),                                     // pinsrb
    R(0x21).cls(C::SsePackedSp).ext(with66(E::Sse41)),                               // insertps
    R(0x22).cls(kSimdInt).ext(with66(E::Sse41)),                                     // pinsrd/q
    R(0x40).cls(C::SsePackedSp).ext(with66(E::Sse41)),                               // dpps
    R(0x41).cls(C::SsePackedDp).ext(with66(E::Sse41)),                               // dppd
    R(0x42).cls(kSimdInt).ext(with66(E::Sse41)),                                     // mpsadbw
    R(0x44).cls(kSimdInt).ext(with66(E::Pclmul)),                                    // pclmulqdq
    R(0x60).pp(P66).cls(kSimdInt).ext(E::Sse42).ops(pcmpstr<true, false>),
    R(0x61).pp(P66).cls(kSimdInt).ext(E::Sse42).ops(pcmpstr<true, true>),
    R(0x62).pp(P66).cls(kSimdInt).ext(E::Sse42).ops(pcmpstr<false, false>),
    R(0x63).pp(P66).cls(kSimdInt).ext(E::Sse42).ops(pcmpstr<false, true>),
    R(0xCC).cls(kSimdInt).ext(E::Sha, E::Ssse3, E::Ssse3, E::Ssse3),
    R(0xCE, 0xCF).cls(kSimdInt).ext(with66(E::Gfni)),
    R(0xDF).cls(kSimdInt).ext(with66(E::Aes)),                                       // aeskeygenassist
    R(0xF0).cls(C::IntShift).ext(E::Ssse3).vex_ops(rorx),                            // rorx (BMI2)
    R(0x00, 0xFF).cls(kSimdInt).ext(E::Ssse3),
};

constexpr auto k0F38Index = index_rows<covered(k0F38Rows)>(k0F38Rows);
constexpr auto k0F3AIndex = index_rows<covered(k0F3ARows)>(k0F3ARows);
static_assert(every_opcode_has_a_row(k0F38Index) && every_opcode_has_a_row(k0F3AIndex), "every opcode has a row");

}  // namespace

extern const OpcodeMap k0F38Map = {k0F38Rows, sizeof k0F38Rows / sizeof k0F38Rows[0], k0F38Index.start,
                                   k0F38Index.order};
extern const OpcodeMap k0F3AMap = {k0F3ARows, sizeof k0F3ARows / sizeof k0F3ARows[0], k0F3AIndex.start,
                                   k0F3AIndex.order};

}  // namespace netburst::emu::x86ops
