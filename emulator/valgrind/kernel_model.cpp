#include "emulator/valgrind/kernel_model.h"

namespace netburst::emu::vg {

namespace {

using C = InsnClass;

// Kernel addresses in the layout of a Linux x86-64 kernel (text at 0xffffffff81000000, the direct map at
// 0xffff888000000000, vmalloc'ed stacks at 0xffffc90000000000). Only their distinctness and alignment matter:
// the path has its own code, stack and data lines in the caches and TLBs.
constexpr std::uint64_t kEntryText = 0xffffffff81e00000ull;      // entry_SYSCALL_64
constexpr std::uint64_t kDispatchText = 0xffffffff81c40000ull;   // do_syscall_64
constexpr std::uint64_t kServiceText = 0xffffffff81300000ull;    // the service routine's stand-in
constexpr std::uint64_t kExitText = 0xffffffff81c40400ull;       // syscall_exit_to_user_mode
constexpr std::uint64_t kSyscallTable = 0xffffffff82200000ull;
constexpr std::uint64_t kStackTop = 0xffffc90000004000ull;       // per logical processor, 16 KB apart
constexpr std::uint64_t kPerCpu = 0xffff88807fc00000ull;         // per logical processor, 1 MB apart
constexpr std::uint64_t kTaskData = 0xffff888100200000ull;       // the current task's flags and the service data

class PathBuilder {
public:
    PathBuilder(KernelPath* out, std::uint64_t pc) : out_(out), pc_(pc) { out_->length = 0; }

    Instruction& op(C cls, unsigned length = 3) {
        Instruction& i = out_->insns[out_->length++];
        i = Instruction{};
        i.pc = pc_;
        i.length = static_cast<std::uint8_t>(length);
        i.cls = cls;
        i.cpl = 0;
        pc_ += length;
        return i;
    }
    void alu(unsigned n) {
        for (unsigned k = 0; k < n; ++k) op(C::IntAlu);
    }
    void load(std::uint64_t address) { add(op(C::IntAlu, 4), address, false); }
    void store(std::uint64_t address) { add(op(C::IntAlu, 4), address, true); }
    void push(unsigned n) {
        for (unsigned k = 0; k < n; ++k) {
            sp_ -= 8;
            add(op(C::IntAlu, 1), sp_, true);
        }
    }
    void pop(unsigned n) {
        for (unsigned k = 0; k < n; ++k) {
            add(op(C::IntAlu, 1), sp_, false);
            sp_ += 8;
        }
    }
    void branch_not_taken() {
        Instruction& i = op(C::CondBranch, 2);
        i.taken = false;
        i.target = i.pc + 0x40;  // a forward branch over an unlikely path
    }
    void call(std::uint64_t target, bool indirect, std::uint64_t table_slot = 0) {
        Instruction& i = op(indirect ? C::IndirectCall : C::DirectCall, indirect ? 2 : 5);
        if (indirect) add(i, table_slot, false);  // call *table(,%rax,8)
        sp_ -= 8;
        add(i, sp_, true);                        // the return address
        i.taken = true;
        i.target = target;
        returns_[depth_++] = pc_;
        pc_ = target;
    }
    void ret() {
        Instruction& i = op(C::Return, 1);
        add(i, sp_, false);
        sp_ += 8;
        i.taken = true;
        i.target = returns_[--depth_];
        pc_ = i.target;
    }
    void set_stack(std::uint64_t sp) { sp_ = sp; }
    std::uint64_t sp() const { return sp_; }

private:
    static void add(Instruction& i, std::uint64_t address, bool store) {
        MemOperand& m = i.mem[i.num_mem++];
        m.address = address;
        m.size = 8;
        m.is_store = store;
    }

    KernelPath* out_;
    std::uint64_t pc_;
    std::uint64_t sp_ = 0;
    std::uint64_t returns_[8] = {};
    unsigned depth_ = 0;
};

}  // namespace

void build_kernel_path(unsigned lp, KernelPath* out) {
    const std::uint64_t stack = kStackTop + 0x4000ull * lp;
    const std::uint64_t percpu = kPerCpu + 0x100000ull * lp;
    PathBuilder b(out, kEntryText);

    // entry_SYSCALL_64: switch GS and stack, build pt_regs, clear registers, call the dispatcher.
    b.op(C::Microcode);          // swapgs
    b.store(percpu + 0x10);      // save the user stack pointer
    b.load(percpu + 0x18);       // load the task's kernel stack top
    b.set_stack(stack);
    b.push(21);                  // pt_regs: ss, sp, flags, cs, ip, orig_ax and the fifteen general registers
    b.alu(12);                   // clear the registers not needed (xor r, r)
    b.alu(2);                    // mov %rsp,%rdi; movslq %eax,%rsi
    b.call(kDispatchText, false);

    // do_syscall_64: bounds-check the number, index the table, call the service routine.
    b.push(2);
    b.alu(4);
    b.branch_not_taken();        // nr >= NR_syscalls
    b.alu(2);                    // array_index_nospec
    b.call(kServiceText, true, kSyscallTable);

    // The service routine's stand-in: a short, branch-predictable routine touching the task's data.
    b.push(2);
    b.alu(10);
    b.load(kTaskData + 0x40);
    b.load(kTaskData + 0x48);
    b.branch_not_taken();
    b.alu(8);
    b.load(kTaskData + 0x80);
    b.load(kTaskData + 0xc0);
    b.store(kTaskData + 0x100);
    b.branch_not_taken();
    b.alu(6);
    b.load(kTaskData + 0x140);
    b.load(kTaskData + 0x148);
    b.store(kTaskData + 0x180);
    b.store(b.sp() + 0x80);      // the return value into pt_regs->ax
    b.pop(2);
    b.ret();

    // Back in do_syscall_64: the exit work (no signal pending, no tracing).
    b.call(kExitText, false);
    b.load(kTaskData);           // current->thread_info.flags
    b.alu(1);                    // test the work mask
    b.branch_not_taken();
    b.ret();
    b.alu(4);                    // check that sysret may be used (rcx == r11-restored rip, canonical)
    b.branch_not_taken();
    b.pop(2);
    b.ret();

    // Back in entry_SYSCALL_64: restore registers and return to user mode.
    b.pop(15);
    b.load(percpu + 0x10);       // the user stack pointer
    b.op(C::Microcode);          // swapgs
    Instruction& sysret = b.op(C::IndirectJump);  // sysretq: the far return to the user instruction
    sysret.taken = true;
}

void set_kernel_return(KernelPath* path, std::uint64_t user_address) {
    if (path->length) path->insns[path->length - 1].target = user_address;
}

KernelPathCounts count_kernel_path(const KernelPath& path) {
    KernelPathCounts c;
    c.instructions = path.length;
    for (unsigned i = 0; i < path.length; ++i) {
        const Instruction& insn = path.insns[i];
        for (unsigned k = 0; k < insn.num_mem; ++k) (insn.mem[k].is_store ? c.stores : c.loads)++;
        switch (insn.cls) {
        case C::CondBranch: ++c.conditional_branches; break;
        case C::DirectCall: case C::IndirectCall: ++c.calls; break;
        case C::Return: ++c.returns; break;
        case C::IndirectJump: ++c.other_branches; break;
        default: break;
        }
    }
    return c;
}

}  // namespace netburst::emu::vg
