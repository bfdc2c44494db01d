// The extern "C" entry points of nb_runtime.h, forwarding to the one ToolRuntime and building static infos.
#include <new>

#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/runtime.h"
#include "emulator/x86/guest_isa.h"
#include "emulator/x86/x86_instruction.h"
#include "table/msr_map.h"

using netburst::emu::Instruction;
using netburst::emu::InsnClass;
using netburst::emu::InsnForm;
using netburst::emu::vg::InsnInfo;
using netburst::emu::vg::ToolRuntime;

namespace {

// Zero-initialised, so it needs no constructor (a tool runs none).
ToolRuntime* g_runtime = nullptr;

// The i386 build: whoever calls in (translated code's helpers, Valgrind's callbacks) may leave the host's x87 stack
// nearly full. VEX's x86 back end keeps its floating-point registers in st(0) to st(5) and frees only st(7) before
// each load (host_x86_defs.c, do_ffree_st7), so model code that holds a second x87 value overflows the stack and
// reads NaN. Even built with SSE2 arithmetic the model uses x87 for 64-bit integer conversions (no SSE2 form in
// 32-bit mode), two deep in places (SampledCounters::unit_end). fnsave stores that state and leaves the FPU
// initialised, its stack empty; frstor puts the caller's state back. The x86-64 build needs none of this: its
// doubles never touch x87. The cost does not show: the hot entry, nb_rt_consume, runs a whole buffer of records
// (matmul 300 -m32 under --timing=sampled, farm-bench -n 7: 1.004x).
struct X87Scope {
#if defined(__i386__)
    X87Scope() { asm volatile("fnsave %0" : "=m"(state) : : "memory"); }
    ~X87Scope() { asm volatile("frstor %0" : : "m"(state) : "memory"); }
    unsigned char state[108];
#else
    X87Scope() {}
    ~X87Scope() {}  // user-provided, so a scope that does nothing here is not an unused variable
#endif
    X87Scope(const X87Scope&) = delete;
    X87Scope& operator=(const X87Scope&) = delete;
};

// A translation's static infos: this header, then `count` InsnInfos.
struct alignas(8) Block {
    unsigned count;
    InsnInfo* infos() { return reinterpret_cast<InsnInfo*>(this + 1); }
};

}  // namespace

extern "C" {

const char* nb_rt_init(const struct nb_rt_config* config) {
    const X87Scope x87;
    void* raw = nb_host_malloc(sizeof(ToolRuntime));
    if (!raw) return "out of memory";
    g_runtime = new (raw) ToolRuntime();
    return g_runtime->init(*config);
}

const char* nb_rt_load_program(const char* text, size_t length) {
    const X87Scope x87;
    return g_runtime->load_program(text, length);
}

void* nb_rt_block_new(unsigned count) {
    const X87Scope x87;
    const size_t size = sizeof(Block) + sizeof(InsnInfo) * count;
    auto* block = static_cast<Block*>(nb_host_malloc(size));
    if (!block) nb_host_panic("out of memory");
    block->count = count;
    for (unsigned i = 0; i < count; ++i) new (&block->infos()[i]) InsnInfo();
    return block;
}

uint64_t nb_rt_block_set(void* block_ptr, unsigned index, const struct nb_insn_desc* d) {
    const X87Scope x87;
    auto* block = static_cast<Block*>(block_ptr);
    if (index >= block->count) nb_host_panic("static info index out of range");
    InsnInfo& info = block->infos()[index];
    Instruction& t = info.tmpl;
    t.pc = d->pc;
    t.length = d->length;
    t.cls = static_cast<InsnClass>(d->cls);
    t.form = static_cast<InsnForm>(d->form);
    t.reads = d->reads;
    t.writes = d->writes;
    t.address = d->address;
    t.imm_bits = d->imm_bits;
    t.num_mem = d->num_mem;
    for (unsigned k = 0; k < d->num_mem && k < netburst::emu::kMaxMemOperands; ++k) {
        t.mem[k].size = d->mem_size[k];
        t.mem[k].is_store = d->mem_store[k] != 0;
    }
    t.target = d->target;
    // Unconditional transfers are always taken; conditional ones are decided per execution or statically.
    t.taken = netburst::emu::is_branch(t.cls) && t.cls != InsnClass::CondBranch;
    if (d->branch_mode == NB_BR_STATIC_TAKEN) t.taken = true;
    info.mem_words = d->num_mem;
    info.branch_mode = d->branch_mode;
    info.rep_mode = d->rep_mode;
    info.dynamic_target = d->dynamic_target != 0;
    info.syscall = t.cls == InsnClass::Syscall;
    info.snapshot = d->snapshot != 0;
    info.group = d->group;
    info.remaining = block->count - index - 1;
    info.simple = info.mem_words == 0 && !info.dynamic_target && info.rep_mode == NB_REP_NONE && !info.syscall &&
                  !info.snapshot &&
                  (info.branch_mode == NB_BR_NONE || info.branch_mode == NB_BR_STATIC_TAKEN ||
                   info.branch_mode == NB_BR_STATIC_NOT_TAKEN);
    // The uop plan depends only on the shape, which is static unless a string's count or a guarded access varies
    // (a string has no plan here; a guarded access that did not happen makes another shape, see consume()).
    info.plan = info.rep_mode == NB_REP_NONE ? g_runtime->stable_plan(t) : nullptr;
    info.invert = info.branch_mode == NB_BR_EXIT_NOT_TAKEN;
    using Fast = InsnInfo::Fast;
    const bool plain_rest =
        !info.dynamic_target && info.rep_mode == NB_REP_NONE && !info.syscall && !info.snapshot && info.plan;
    const bool static_outcome = info.branch_mode == NB_BR_NONE || info.branch_mode == NB_BR_STATIC_TAKEN ||
                                info.branch_mode == NB_BR_STATIC_NOT_TAKEN;
    if (info.group > 1) {
        info.fast = Fast::Group;
    } else if (info.simple && info.plan) {
        info.fast = Fast::Plain;
    } else if (plain_rest && static_outcome && info.mem_words == 1) {
        info.fast = Fast::OneAccess;
    } else if (plain_rest && info.mem_words == 0 &&
               (info.branch_mode == NB_BR_EXIT_TAKEN || info.branch_mode == NB_BR_EXIT_NOT_TAKEN)) {
        info.fast = Fast::ExitBranch;
    }
    return info_word(&info);
}

void nb_rt_block_free(void* block) {
    const X87Scope x87;
    nb_host_free(block);
}

void nb_rt_consume(const uint64_t* begin, const uint64_t* end) {
    const X87Scope x87;
    g_runtime->consume(begin, end);
}
void nb_rt_thread_created(unsigned tid) {
    const X87Scope x87;
    g_runtime->thread_created(tid);
}
void nb_rt_switch_thread(unsigned tid) {
    const X87Scope x87;
    g_runtime->switch_thread(tid);
}
void nb_rt_thread_exited(unsigned tid) {
    const X87Scope x87;
    g_runtime->thread_exited(tid);
}
void nb_rt_fork_child(unsigned tid) {
    const X87Scope x87;
    g_runtime->fork_child(tid);
}

int nb_rt_wrmsr(uint32_t msr, uint64_t value) {
    const X87Scope x87;
    return g_runtime->wrmsr(msr, value);
}
int nb_rt_rdmsr(uint32_t msr, uint64_t* value) {
    const X87Scope x87;
    return g_runtime->rdmsr(msr, value);
}
int nb_rt_rdpmc(uint32_t ecx, uint64_t* value) {
    const X87Scope x87;
    return g_runtime->rdpmc(ecx, value);
}
static_assert(NB_NUM_PMU_COUNTERS == netburst::kNumCounters, "the client header's counters are the table's");
int nb_rt_read_counter(uint32_t counter, uint64_t* cccr, uint64_t* value) {
    const X87Scope x87;
    if (counter >= netburst::kNumCounters) return NB_GP_FAULT;
    const int r = g_runtime->rdmsr(netburst::kCounters[counter].cccr_msr, cccr);
    return r != NB_OK ? r : g_runtime->rdpmc(counter, value);  // ECX bit 31 clear: the full 40 bits
}
int nb_rt_counter_status(uint32_t counter) {
    const X87Scope x87;
    return g_runtime->counter_status(counter);
}
int nb_rt_counter_interval(uint32_t counter, uint64_t* half_width) {
    const X87Scope x87;
    return g_runtime->counter_interval(counter, half_width);
}
void nb_rt_query(struct nb_emulator_info* info) {
    const X87Scope x87;
    g_runtime->query(info);
}
void nb_rt_set_pmi_signal(int signo) {
    const X87Scope x87;
    g_runtime->set_pmi_signal(signo);
}
int nb_rt_take_pmi(struct nb_pmi* out) {
    const X87Scope x87;
    return g_runtime->take_pmi(out);
}
int nb_rt_take_pebs(struct nb_pebs_note* out) {
    const X87Scope x87;
    return g_runtime->take_pebs(out);
}

void nb_rt_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4]) {
    const X87Scope x87;
    const netburst::emu::vg::CpuidRegs r = g_runtime->cpuid(leaf, subleaf);
    regs[0] = r.eax;
    regs[1] = r.ebx;
    regs[2] = r.ecx;
    regs[3] = r.edx;
}

int nb_rt_missing_instruction(uint64_t pc, unsigned extension) {
    const X87Scope x87;
    const auto e = static_cast<netburst::emu::vg::GuestExtension>(extension);
    return g_runtime->note_missing_instruction(pc, netburst::emu::vg::extension_name(e)) ? 1 : 0;
}

void nb_rt_name_first_missing(const char* symbol) {
    const X87Scope x87;
    g_runtime->name_first_missing(symbol);
}

void nb_rt_finish(void) {
    const X87Scope x87;
    g_runtime->finish();
}

size_t nb_rt_results(char* buffer, size_t capacity, int final_run, uint64_t pid) {
    const X87Scope x87;
    return g_runtime->results(buffer, capacity, final_run != 0, pid);
}

int nb_rt_sampling(void) {
    const X87Scope x87;
    return g_runtime && g_runtime->sampling() ? 1 : 0;
}
void nb_rt_sampling_begin(uint64_t pid, const char* exe) {
    const X87Scope x87;
    g_runtime->sampling_begin(pid, exe);
}
void nb_rt_sampling_finish(void) {
    const X87Scope x87;
    g_runtime->sampling_finish();
}

void nb_rt_sampling_line(const char* line) {
    const X87Scope x87;
    if (!g_runtime->sampling()) return;
    netburst::emu::vg::SampleWriter& writer = g_runtime->sample_writer();
    netburst::emu::vg::TextWriter w = writer.line();
    netburst::emu::vg::append_text(w, line);
    w.ch('\n');
    writer.commit(w);
}

void nb_rt_sampling_flush(void) {
    const X87Scope x87;
    if (g_runtime && g_runtime->sampling()) g_runtime->sample_writer().flush();
}

int nb_rt_pebs_armed(void) {
    const X87Scope x87;
    return g_runtime && g_runtime->pebs_armed() ? 1 : 0;
}

uint64_t nb_rt_instructions(void) {
    const X87Scope x87;
    return g_runtime ? g_runtime->instructions() : 0;
}
uint64_t nb_rt_cycles_now(void) {
    const X87Scope x87;
    return g_runtime ? g_runtime->cycles_now() : 0;
}
void nb_rt_clock_read(void) {
    const X87Scope x87;
    if (g_runtime) g_runtime->clock_read();
}
unsigned nb_rt_cpu_mhz(void) {
    const X87Scope x87;
    return g_runtime ? netburst::emu::vg::guest_cpu_mhz(g_runtime->machine().model) : 0;
}
uint64_t nb_rt_timed_instructions(void) {
    const X87Scope x87;
    return g_runtime ? g_runtime->timed_instructions() : 0;
}
uint64_t nb_rt_clock_half_width(void) {
    const X87Scope x87;
    return g_runtime ? g_runtime->clock_half_width() : 0;
}
int nb_rt_memo_probe(uint64_t* blocks, uint64_t* hits, uint64_t* stored, uint64_t* evicted) {
    const X87Scope x87;
    const netburst::emu::MemoProbe* p = g_runtime ? g_runtime->memo_probe() : nullptr;
    if (p == nullptr) return 0;
    *blocks = p->blocks();
    *hits = p->hits();
    *stored = p->stored();
    *evicted = p->evicted();
    return 1;
}
uint64_t nb_rt_thread_switches(void) {
    const X87Scope x87;
    return g_runtime ? g_runtime->thread_switches() : 0;
}

}  // extern "C"

namespace {

// Each build of the tool runs the programs of its own platform (nb_guest.h): i386 ones in 32-bit mode.
#if defined(__i386__)
constexpr netburst::emu::X86Mode kGuestMode = netburst::emu::X86Mode::Protected32;
#else
constexpr netburst::emu::X86Mode kGuestMode = netburst::emu::X86Mode::Long64;
#endif

}  // namespace

extern "C" {

void nb_decode_insn(const uint8_t* bytes, unsigned length, int prescott_idioms, struct nb_x86_insn* out) {
    *out = nb_x86_insn{};
    netburst::emu::X86OperandOptions options;
    options.prescott_idioms = prescott_idioms != 0;
    options.mode = kGuestMode;
    const netburst::emu::X86Instruction c = netburst::emu::decode_instruction(bytes, length, options);
    out->missing_extension =
        static_cast<unsigned>(netburst::emu::vg::missing_extension(g_runtime->machine(), c.extension));
    if (netburst::emu::is_valgrind_special_sequence(bytes, length, kGuestMode)) {
        out->special = 1;
        out->known = 1;
        return;
    }
    out->cls = static_cast<uint8_t>(c.cls);
    out->form = static_cast<uint8_t>(c.form);
    out->known = c.known ? 1 : 0;
    out->rep_mode = !c.rep ? NB_REP_NONE : (c.compares ? NB_REP_COND : NB_REP_PLAIN);
    out->has_rel = c.has_rel ? 1 : 0;
    out->rel = c.rel;
    out->operands_known = c.operands.known ? 1 : 0;
    out->reads = c.operands.reads;
    out->writes = c.operands.writes;
    out->address = c.operands.address;
    out->imm_bits = c.imm_bits;
}

uint64_t nb_reg_flags(void) { return netburst::emu::kRegFlags; }
uint64_t nb_reg_x87(void) { return netburst::emu::kRegX87; }
uint64_t nb_reg_x87_all(void) { return netburst::emu::kRegX87 | netburst::emu::kRegStackMask; }
uint64_t nb_reg_gpr(unsigned n) { return netburst::emu::reg_gpr(n); }
uint64_t nb_reg_xmm(unsigned n) { return netburst::emu::reg_xmm(n); }

int nb_class_kind(uint8_t cls) {
    switch (static_cast<InsnClass>(cls)) {
    case InsnClass::CondBranch: return NB_CLASS_COND_BRANCH;
    case InsnClass::IndirectJump: case InsnClass::IndirectCall: case InsnClass::Return: return NB_CLASS_INDIRECT;
    case InsnClass::IntDiv: return NB_CLASS_INT_DIV;
    case InsnClass::Syscall: return NB_CLASS_SYSCALL;
    default: return NB_CLASS_OTHER;
    }
}

int nb_class_sampled_without_memory(uint8_t cls) {
    switch (static_cast<InsnClass>(cls)) {
    // The classes whose uops carry an execution-tagging event (core/uop_decode.cpp).
    case InsnClass::X87Arith: case InsnClass::X87Div: case InsnClass::X87Complex: case InsnClass::X87Move:
    case InsnClass::SimdMove: case InsnClass::SseScalarSp: case InsnClass::SseScalarDp: case InsnClass::SsePackedSp:
    case InsnClass::SsePackedDp: case InsnClass::SseDivSp: case InsnClass::SseDivDp: case InsnClass::Mmx64:
    case InsnClass::Simd128Int:
        return 1;
    default:
        return netburst::emu::is_branch(static_cast<InsnClass>(cls)) ? 1 : 0;
    }
}

}  // extern "C"
