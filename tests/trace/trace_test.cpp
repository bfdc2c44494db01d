// Trace files: the text form (repeats, expressions, errors), the binary codec, and conversion between them.
#include <gtest/gtest.h>

#include <cstdio>

#include "emulator/trace/binary_codec.h"
#include "emulator/trace/trace_file.h"

using namespace netburst::emu;
using namespace netburst::emu::trace;

namespace {

std::vector<Instruction> read_all(const std::string& text) {
    std::string error;
    auto r = TraceReader::from_text(text, &error);
    EXPECT_TRUE(r) << error;
    std::vector<Instruction> out;
    if (!r) return out;
    Instruction insn;
    int status;
    while ((status = r->next(&insn, &error)) == 1) out.push_back(insn);
    EXPECT_EQ(status, 0) << error;
    return out;
}

std::string parse_error(const std::string& text) {
    std::string error;
    auto r = TraceReader::from_text(text, &error);
    if (!r) return error;
    Instruction insn;
    while (r->next(&insn, &error) == 1) {
    }
    return error;
}

}  // namespace

TEST(TextTrace, InstructionFields) {
    const auto v = read_all(
        "netburst-trace 1\n"
        "# a comment\n"
        "0x401000 3 IntAlu rd=rax,rbx wr=rax,flags\n"
        "0x401003 4 SseScalarDp ld=0x7ffe0010/8 rd=rsp,xmm1 wr=xmm1  # trailing comment\n"
        "0x401007 2 CondBranch taken target=0x401000 cpl=0 thread=1\n"
        "0x401009 5 StringOp rep=1024 st=0x1000/16 ld=0x2000/16\n");
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0].pc, 0x401000u);
    EXPECT_EQ(v[0].reads, reg_gpr(0) | reg_gpr(3));
    EXPECT_EQ(v[0].writes, reg_gpr(0) | kRegFlags);
    EXPECT_EQ(v[1].cls, InsnClass::SseScalarDp);
    ASSERT_EQ(v[1].num_mem, 1);
    EXPECT_EQ(v[1].mem[0].address, 0x7ffe0010u);
    EXPECT_EQ(v[1].mem[0].size, 8);
    EXPECT_FALSE(v[1].mem[0].is_store);
    EXPECT_TRUE(v[2].taken);
    EXPECT_EQ(v[2].target, 0x401000u);
    EXPECT_EQ(v[2].cpl, 0);
    EXPECT_EQ(v[2].thread, 1);
    EXPECT_EQ(v[3].rep_count_log2, 10);
    EXPECT_TRUE(v[3].mem[0].is_store);
}

TEST(TextTrace, RepeatsAndExpressions) {
    const auto v = read_all(
        "repeat 3 as j {\n"
        "  repeat 4 {\n"
        "    0x100 4 IntAlu ld=0x10000+64*i+4096*j/4\n"
        "    0x104 2 CondBranch taken=i!=3 target=0x100\n"
        "  }\n"
        "}\n");
    ASSERT_EQ(v.size(), 24u);
    EXPECT_EQ(v[0].mem[0].address, 0x10000u);
    EXPECT_EQ(v[2].mem[0].address, 0x10000u + 64);
    EXPECT_TRUE(v[1].taken);
    EXPECT_FALSE(v[7].taken) << "last inner iteration falls through";
    EXPECT_EQ(v[8].mem[0].address, 0x10000u + 4096);
    EXPECT_EQ(v[22].mem[0].address, 0x10000u + 4096 * 2 + 64 * 3);
}

TEST(TextTrace, RandIsDeterministicAndOperatorsFollowPrecedence) {
    const auto a = read_all("repeat 5 {\n0x1 1 IntAlu ld=0x1000+(rand(i)%64)*64/8\n}\n");
    const auto b = read_all("repeat 5 {\n0x1 1 IntAlu ld=0x1000+(rand(i)%64)*64/8\n}\n");
    ASSERT_EQ(a.size(), 5u);
    for (std::size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].mem[0].address, b[k].mem[0].address);
        EXPECT_EQ((a[k].mem[0].address - 0x1000) % 64, 0u);
        EXPECT_LT(a[k].mem[0].address, 0x1000u + 64 * 64);
    }
    const auto c = read_all("0x1 1 IntAlu ld=2+3*4-(8>>1)<<1/4\n");
    EXPECT_EQ(c[0].mem[0].address, static_cast<std::uint64_t>((2 + 3 * 4 - (8 >> 1)) << 1));
}

TEST(TextTrace, ErrorsNameTheLine) {
    EXPECT_EQ(parse_error("0x1 1 IntAlu\n0x2 1 Frobnicate\n").rfind("2:", 0), 0u);
    EXPECT_NE(parse_error("0x1 16 IntAlu\n").find("1-15"), std::string::npos);
    EXPECT_NE(parse_error("repeat 2 {\n0x1 1 IntAlu\n").find("not closed"), std::string::npos);
    EXPECT_NE(parse_error("}\n").find("without"), std::string::npos);
    EXPECT_NE(parse_error("0x1 1 IntAlu ld=0x10\n").find("ADDRESS/SIZE"), std::string::npos);
    EXPECT_NE(parse_error("0x1 1 IntAlu rd=rzz\n").find("rzz"), std::string::npos);
    EXPECT_NE(parse_error("0x1 1 IntAlu ld=j/4\n").find("unknown variable"), std::string::npos);
    EXPECT_NE(parse_error("0x1 1 IntAlu ld=4/(i-i)/4\n").find("variable"), std::string::npos);
    EXPECT_NE(parse_error("repeat 1 {\n0x1 1 IntAlu ld=4/(i-i)/4\n}\n").find("division by zero"), std::string::npos);
    EXPECT_NE(parse_error("0x1 1 IntAlu ld=0x10/4 st=0x20/4 ld=0x30/4\n").find("two memory"), std::string::npos);
    EXPECT_NE(parse_error("netburst-trace 2\n").find("netburst-trace 1"), std::string::npos);
}

TEST(BinaryCodec, RoundTripsEveryField) {
    Instruction a;
    a.pc = 0x7f0000401000;
    a.length = 7;
    a.cls = InsnClass::SsePackedDp;
    a.thread = 1;
    a.cpl = 0;
    a.num_mem = 2;
    a.mem[0] = {0x7ffe0000, 16, false};
    a.mem[1] = {0x7ffd0000, 16, true};
    a.taken = true;
    a.target = 0x400000;
    a.rep_count_log2 = 5;
    a.reads = reg_xmm(3) | reg_gpr(4);
    a.writes = reg_xmm(3);
    Instruction b;
    b.pc = 0x7f0000401007;
    CodecState enc{}, dec{};
    std::uint8_t buf[2 * kMaxRecordBytes];
    std::size_t n = encode_record(a, &enc, buf);
    ASSERT_LE(n, kMaxRecordBytes);
    n += encode_record(b, &enc, buf + n);
    Instruction x, y;
    const std::size_t used = decode_record(buf, n, &dec, &x);
    ASSERT_GT(used, 0u);
    ASSERT_EQ(decode_record(buf + used, n - used, &dec, &y), n - used);
    EXPECT_EQ(format_text_line(x), format_text_line(a));
    EXPECT_EQ(format_text_line(y), format_text_line(b));
    EXPECT_LE(n - used, 4u) << "a sequential register-only instruction costs a few bytes";
    // Truncated input asks for more; garbage is an error.
    EXPECT_EQ(decode_record(buf, used - 1, &dec, &x), 0u);
    const std::uint8_t junk[] = {0xFF, 0, 0, 0};
    CodecState fresh{};
    EXPECT_EQ(decode_record(junk, sizeof junk, &fresh, &x), kDecodeError);
}

TEST(BinaryCodec, TruncatedRecordLeavesTheStateAlone) {
    // A reader that meets a record cut at its buffer's end refills and decodes it again: the first, truncated
    // attempt must not have advanced the delta state (the PC and memory deltas of the record would count twice).
    Instruction a;
    a.pc = 0x401000;
    a.length = 4;
    a.num_mem = 2;
    a.mem[0] = {0x7ffe0000, 8, false};
    a.mem[1] = {0x7ffd0000, 8, true};
    CodecState enc{};
    std::uint8_t buf[kMaxRecordBytes];
    const std::size_t n = encode_record(a, &enc, buf);
    for (std::size_t cut = 1; cut < n; ++cut) {
        CodecState dec{};
        Instruction x;
        ASSERT_EQ(decode_record(buf, cut, &dec, &x), 0u) << cut;
        ASSERT_EQ(decode_record(buf, n, &dec, &x), n) << cut;
        EXPECT_EQ(format_text_line(x), format_text_line(a)) << cut;
    }
}

TEST(TraceFile, BinaryFileRoundTripsThroughTheReader) {
    const auto text = read_all("repeat 1000 {\n0x400000+i*3 3 IntAlu ld=0x10000+8*i/8 rd=rax\n}\n");
    const std::string path = ::testing::TempDir() + "trace_test.nbt";
    std::string error;
    {
        auto w = BinaryTraceWriter::create(path, &error);
        ASSERT_TRUE(w) << error;
        for (const auto& insn : text) ASSERT_TRUE(w->write(insn));
        ASSERT_TRUE(w->close(&error)) << error;
    }
    auto r = TraceReader::open(path, &error);
    ASSERT_TRUE(r) << error;
    Instruction insn;
    std::size_t k = 0;
    while (r->next(&insn, &error) == 1) {
        ASSERT_LT(k, text.size());
        EXPECT_EQ(format_text_line(insn), format_text_line(text[k]));
        ++k;
    }
    EXPECT_EQ(k, text.size());
    std::remove(path.c_str());
}
