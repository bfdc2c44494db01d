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
// The timer interrupt's own code and data.
constexpr std::uint64_t kIrqEntryText = 0xffffffff81e00a00ull;   // asm_sysvec_apic_timer_interrupt, error_entry
constexpr std::uint64_t kIrqHandlerText = 0xffffffff81b80000ull; // sysvec_apic_timer_interrupt
constexpr std::uint64_t kHrtimerText = 0xffffffff81140000ull;    // hrtimer_interrupt and the tick
constexpr std::uint64_t kSchedText = 0xffffffff810c0000ull;      // scheduler_tick, task_tick_fair
constexpr std::uint64_t kIrqExitText = 0xffffffff81b80400ull;    // irq_exit_rcu, irqentry_exit_to_user_mode
constexpr std::uint64_t kApicEoi = 0xffffffffff5fc0b0ull;        // the local APIC's EOI register (fixmap)
constexpr std::uint64_t kRunQueue = 0xffff88807fc30000ull;       // per logical processor, with the per-CPU area
constexpr std::uint64_t kTimerBase = 0xffff88807fc18000ull;      // per logical processor: the hrtimer queue

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

void build_timer_interrupt_path(unsigned lp, KernelPath* out) {
    const std::uint64_t stack = kStackTop + 0x4000ull * lp;
    const std::uint64_t percpu = kPerCpu + 0x100000ull * lp;
    const std::uint64_t rq = kRunQueue + 0x100000ull * lp;
    const std::uint64_t timers = kTimerBase + 0x100000ull * lp;
    PathBuilder b(out, kIrqEntryText);
    // The processor's delivery (the IDT read and the five words it pushes: ss, rsp, rflags, cs, rip) is not an
    // instruction; the path starts at the handler's first one, on the kernel stack the TSS names.
    b.set_stack(stack - 5 * 8);

    // asm_sysvec_apic_timer_interrupt and error_entry: orig_ax, then pt_regs; from user mode, swapgs.
    b.push(1);                   // push $-1 (orig_ax)
    b.call(kIrqEntryText + 0x100, false);  // error_entry
    b.push(15);                  // the fifteen general registers
    b.alu(6);                    // clear the registers not needed
    b.load(b.sp() + 17 * 8);     // testb $3, CS(%rsp): from user mode
    b.branch_not_taken();        // jz .Lerror_kernelspace
    b.op(C::Microcode);          // swapgs
    b.load(percpu + 0x18);       // the task's stack (sync_regs finds pt_regs already on it)
    b.ret();
    b.alu(1);                    // mov %rsp, %rdi
    b.call(kIrqHandlerText, false);

    // sysvec_apic_timer_interrupt: enter the interrupt, acknowledge it, run the local timer.
    b.push(2);
    b.alu(4);
    b.load(percpu + 0x40);       // irqentry_enter: the context-tracking state
    b.branch_not_taken();
    b.store(percpu + 0x48);
    b.load(percpu + 0x50);       // irq_enter_rcu: preempt_count
    b.alu(2);
    b.store(percpu + 0x50);      // preempt_count += HARDIRQ_OFFSET
    b.store(kApicEoi);           // ack: the EOI write
    b.call(kHrtimerText, false);

    // hrtimer_interrupt: read the clock, take the expired tick timer off the queue, run it, re-arm the deadline.
    b.push(4);
    b.op(C::Microcode);          // rdtsc (ktime_get)
    b.alu(8);
    b.load(timers);              // the clock base's expiry
    b.load(timers + 0x08);
    b.alu(4);
    b.branch_not_taken();        // nothing else expired
    b.load(timers + 0x40);       // the tick timer
    b.store(timers + 0x48);      // its state: running
    b.call(kHrtimerText + 0x400, false);  // tick_sched_timer
    //   tick_sched_timer: jiffies are another CPU's job; account the tick to the user task.
    b.alu(6);
    b.load(percpu + 0x80);
    b.branch_not_taken();
    b.load(kTaskData + 0x200);   // account_user_time: the task's utime
    b.alu(3);
    b.store(kTaskData + 0x200);
    b.load(kTaskData + 0x208);   // its cputime statistics
    b.alu(3);
    b.store(kTaskData + 0x208);
    b.load(percpu + 0x88);       // run_local_timers: anything due on the timer wheel?
    b.alu(2);
    b.branch_not_taken();
    b.call(kSchedText, false);   // scheduler_tick
    //     scheduler_tick: lock the run queue, update its clock, tick the fair class, unlock.
    b.push(3);
    b.op(C::Microcode);          // lock cmpxchg: raw_spin_lock
    b.op(C::Microcode);          // rdtsc: update_rq_clock
    b.load(rq + 0x08);
    b.alu(6);
    b.store(rq + 0x08);
    b.call(kSchedText + 0x300, false);  // task_tick_fair: update_curr and the entity's load
    b.load(kTaskData + 0x280);   // the entity's exec_start
    b.alu(4);
    b.store(kTaskData + 0x280);
    b.load(kTaskData + 0x288);   // sum_exec_runtime
    b.alu(2);
    b.store(kTaskData + 0x288);
    b.load(rq + 0x40);           // the queue's min_vruntime
    b.alu(6);
    b.store(kTaskData + 0x290);  // vruntime
    b.store(rq + 0x40);
    b.load(rq + 0x48);           // load tracking
    b.alu(8);
    b.store(rq + 0x48);
    b.branch_not_taken();        // no preemption due
    b.ret();
    b.store(rq);                 // raw_spin_unlock
    b.load(rq + 0x80);           // trigger_load_balance: not yet due
    b.branch_not_taken();
    b.pop(3);
    b.ret();
    //   back in tick_sched_timer: forward the timer by one tick.
    b.alu(6);
    b.store(timers + 0x40);
    b.ret();
    //   back in hrtimer_interrupt: re-queue the timer and program the next deadline.
    b.store(timers + 0x48);
    b.store(timers);
    b.alu(6);
    b.op(C::Microcode);          // wrmsr IA32_TSC_DEADLINE
    b.pop(4);
    b.ret();

    // Back in sysvec_apic_timer_interrupt: leave the interrupt; nothing to do on the way to user mode.
    b.call(kIrqExitText, false);  // irq_exit_rcu
    b.load(percpu + 0x50);
    b.alu(2);
    b.store(percpu + 0x50);      // preempt_count -= HARDIRQ_OFFSET
    b.load(percpu + 0x58);       // softirqs pending? none
    b.branch_not_taken();
    b.ret();
    b.call(kIrqExitText + 0x200, false);  // irqentry_exit_to_user_mode
    b.load(kTaskData);           // current->thread_info.flags
    b.alu(1);
    b.branch_not_taken();        // no work (no reschedule, no signal)
    b.ret();
    b.pop(2);
    b.ret();

    // swapgs_restore_regs_and_return_to_usermode: restore the registers, drop orig_ax, back to the user.
    b.pop(15);
    b.alu(1);                    // add $8, %rsp
    b.op(C::Microcode);          // swapgs
    Instruction& iret = b.op(C::IndirectJump, 2);  // iretq: the far return to the interrupted instruction
    iret.mem[iret.num_mem++] = MemOperand{stack - 5 * 8, 8, false};  // it reads rip (and cs, rflags, rsp, ss)
    iret.taken = true;
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
        case C::Microcode: ++c.microcode; break;
        default: break;
        }
    }
    return c;
}

}  // namespace netburst::emu::vg
