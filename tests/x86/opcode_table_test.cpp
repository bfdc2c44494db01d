// The opcode table as a table: it gives the answers of the four maps it replaced (tests/x86/opcode_vectors.txt,
// recorded from them), every row is the row of some encoding, and each row's class, form, operands and extension
// agree with one another.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "emulator/x86/opcode_table.h"
#include "emulator/x86/x86_instruction.h"

using namespace netburst::emu;
using namespace netburst::emu::x86ops;
using C = InsnClass;
using F = InsnForm;

namespace {

struct Vector {
    std::string line;
    std::vector<std::uint8_t> bytes;
    unsigned cls, form, known, memory_form, rep, compares, lock, has_rel;
    int rel;
    X86Operands operands[2];  // without and with the 90 nm zero idioms
    unsigned extension;
};

bool parse(const std::string& line, Vector* v) {
    std::istringstream in(line);
    v->line = line;
    std::string word;
    while (in >> word && word != "|") v->bytes.push_back(static_cast<std::uint8_t>(std::stoul(word, nullptr, 16)));
    in >> v->cls >> v->form >> v->known >> v->memory_form >> v->rep >> v->compares >> v->lock >> v->has_rel >> v->rel;
    for (X86Operands& o : v->operands) {
        unsigned known = 0;
        in >> word >> known >> std::hex >> o.reads >> o.writes >> std::dec;
        o.known = known != 0;
    }
    in >> word >> v->extension;
    return !in.fail() && !v->bytes.empty();
}

// Which classes a form may refine: the form's unit is the class's.
bool form_fits_class(F f, C c) {
    const auto in = [](F x, F first, F last) { return x >= first && x <= last; };
    if (f == F::None) return true;
    if (in(f, F::LoadByte, F::Idiv64) || in(f, F::Logic, F::ShldCl64))
        return c == C::IntAlu || c == C::IntShift || c == C::IntMul || c == C::IntDiv;
    if (in(f, F::Fadd, F::Fsqrt)) return c == C::X87Arith || c == C::X87Div;
    if (in(f, F::SseAdd, F::CvtPd2Ps)) return c >= C::SseScalarSp && c <= C::SseDivDp;
    if (in(f, F::MmxAlu, F::PackXmm)) return c == C::Mmx64 || c == C::Simd128Int;
    return c == C::SimdMove;  // the moves between register files, register moves and loads
}

const OpcodeMap* const kMaps[4] = {&kOneByteMap, &kTwoByteMap, &k0F38Map, &k0F3AMap};

// Every combination of the fields a row can key on, as the decoder front would have decoded it.
template <typename Visit>
void each_decoded(unsigned map, Visit visit) {
    for (X86Mode mode : {X86Mode::Long64, X86Mode::Protected32})
    for (unsigned op = 0; op < 256; ++op)
        for (unsigned vex = 0; vex < 2; ++vex)
            for (unsigned pp = 0; pp < 4; ++pp)
                for (unsigned w = 0; w < 2; ++w)
                    for (unsigned mem = 0; mem < 2; ++mem)
                        for (unsigned modrm = 0; modrm < 64; ++modrm) {
                            X86Decoded d;
                            d.mode = mode;
                            d.has_opcode = d.has_modrm = true;
                            d.map = map;
                            d.op = static_cast<std::uint8_t>(op);
                            d.vex = vex != 0;
                            d.pp = static_cast<Pp>(pp);
                            d.rex_w = w != 0;
                            d.mem = mem != 0;
                            d.modrm = static_cast<std::uint8_t>((mem ? 0x00 : 0xC0) | modrm);
                            d.reg = static_cast<std::uint8_t>(modrm >> 3);
                            visit(d);
                        }
}

}  // namespace

// Every answer of the classifier, the form map, the operand decoder and the extension map, for one encoding of each
// distinct answer they gave (the table was checked against them on every opcode, prefix, REX, VEX and ModRM
// combination before they were removed).
TEST(OpcodeTable, GivesTheAnswersOfTheMapsItReplaced) {
    const char* srcdir = std::getenv("srcdir");
    std::ifstream file(std::string(srcdir ? srcdir : ".") + "/tests/x86/opcode_vectors.txt");
    ASSERT_TRUE(file.good()) << "tests/x86/opcode_vectors.txt (srcdir: " << (srcdir ? srcdir : "unset") << ")";
    unsigned count = 0;
    for (std::string line; std::getline(file, line);) {
        if (line.empty() || line[0] == '#') continue;
        Vector v;
        ASSERT_TRUE(parse(line, &v)) << line;
        ++count;
        const unsigned length = static_cast<unsigned>(v.bytes.size());
        for (unsigned prescott = 0; prescott < 2; ++prescott) {
            X86OperandOptions options;
            options.prescott_idioms = prescott != 0;
            const X86Instruction r = decode_instruction(v.bytes.data(), length, options);
            SCOPED_TRACE(line);
            EXPECT_EQ(static_cast<unsigned>(r.cls), v.cls);
            EXPECT_EQ(static_cast<unsigned>(r.form), v.form);
            EXPECT_EQ(r.known, v.known != 0);
            EXPECT_EQ(r.memory_form, v.memory_form != 0);
            EXPECT_EQ(r.rep, v.rep != 0);
            EXPECT_EQ(r.compares, v.compares != 0);
            EXPECT_EQ(r.lock, v.lock != 0);
            EXPECT_EQ(r.has_rel, v.has_rel != 0);
            EXPECT_EQ(r.rel, v.rel);
            EXPECT_EQ(r.operands.known, v.operands[prescott].known);
            EXPECT_EQ(r.operands.reads, v.operands[prescott].reads);
            EXPECT_EQ(r.operands.writes, v.operands[prescott].writes);
            EXPECT_EQ(static_cast<unsigned>(r.extension), v.extension);
        }
    }
    EXPECT_GT(count, 2000u);
}

// No row is hidden by the rows before it: each is the first to cover some encoding.
TEST(OpcodeTable, EveryRowIsTheRowOfSomeEncoding) {
    for (unsigned map = 0; map < 4; ++map) {
        std::vector<bool> reached(kMaps[map]->count);
        each_decoded(map, [&](const X86Decoded& d) { reached[&opcode_row(d) - kMaps[map]->rows] = true; });
        for (unsigned k = 0; k < reached.size(); ++k) {
            const OpcodeRow& row = kMaps[map]->rows[k];
            EXPECT_TRUE(reached[k]) << "map " << map << ", row " << k << " (opcodes " << std::hex << unsigned{row.lo}
                                    << "-" << unsigned{row.hi} << ")";
        }
    }
}

TEST(OpcodeTable, EachMapEndsWithARowForEveryOpcode) {
    for (const OpcodeMap* map : kMaps) {
        const OpcodeRow& last = map->rows[map->count - 1];
        EXPECT_EQ(last.lo, 0u);
        EXPECT_EQ(last.hi, 0xFFu);
        EXPECT_EQ(last.encoding, Encoding::Any);
        EXPECT_EQ(last.prefixes, P0 | P66 | PF3 | PF2);
        EXPECT_EQ(last.operand, Operand::Any);
        EXPECT_EQ(last.w, WideBit::Any);
        EXPECT_EQ(last.regs, 0xFFu);
        EXPECT_EQ(last.rms, 0xFFu);
    }
}

// Each encoding's form belongs to its class's unit; branches carry a displacement and only they; strings are
// StringOp.
TEST(OpcodeTable, FormsFitTheirClasses) {
    for (unsigned map = 0; map < 4; ++map) {
        each_decoded(map, [&](const X86Decoded& d) {
            const OpcodeRow& row = opcode_row(d);
            const unsigned pp = static_cast<unsigned>(d.pp);
            const C cls = row.classes[pp];
            const F form = row.form_rule ? row.form_rule(d) : row.forms[pp];
            EXPECT_TRUE(form_fits_class(form, cls)) << "map " << map << " opcode " << unsigned{d.op} << " prefix " << pp
                                                    << ": form " << static_cast<int>(form) << ", class "
                                                    << static_cast<int>(cls);
            const bool branch = cls == C::CondBranch || cls == C::DirectJump || cls == C::DirectCall;
            EXPECT_EQ(row.rel != 0, branch && d.map <= 1) << "opcode " << unsigned{d.op};
            EXPECT_EQ(row.string, cls == C::StringOp) << "opcode " << unsigned{d.op};
        });
    }
}

// What a row does not say: an unknown row nothing else; a VEX row no legacy operands, form or extension (VEX
// postdates NetBurst and is AVX); a legacy row no VEX operands; the three-byte maps no forms.
TEST(OpcodeTable, RowsSayOnlyWhatTheirEncodingsHave) {
    for (unsigned map = 0; map < 4; ++map) {
        for (unsigned k = 0; k < kMaps[map]->count; ++k) {
            const OpcodeRow& row = kMaps[map]->rows[k];
            SCOPED_TRACE("map " + std::to_string(map) + ", row " + std::to_string(k));
            bool has_form = row.form_rule != nullptr;
            bool has_extension = false;
            for (unsigned pp = 0; pp < 4; ++pp) {
                has_form = has_form || row.forms[pp] != F::None;
                has_extension = has_extension || row.extensions[pp] != vg::GuestExtension::None;
            }
            if (!row.known) {
                EXPECT_FALSE(has_form || has_extension || row.legacy_operands || row.vex_operands || row.rel);
                EXPECT_EQ(row.classes[0], C::IntAlu);
            }
            if (row.encoding == Encoding::Vex) {
                EXPECT_FALSE(row.legacy_operands || has_form || has_extension);
            }
            if (row.encoding == Encoding::Legacy || map == 0) {
                EXPECT_FALSE(row.vex_operands);  // VEX has no one-byte map
            }
            if (map >= 2) {
                EXPECT_FALSE(has_form);
            }
        }
    }
}
