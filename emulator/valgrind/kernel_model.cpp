#include "emulator/valgrind/kernel_model.h"

namespace netburst::emu::vg {

namespace {

using C = InsnClass;

// Where a kernel keeps the code and data the paths touch. Only the addresses' distinctness and alignment matter:
// the paths have their own code, stack and data lines in the caches and TLBs.
struct KernelLayout {
    unsigned word;                  // bytes of a stack slot and of a general register
    std::uint64_t entry_text;       // the system-call entry (entry_SYSCALL_64; system_call in entry_32.S)
    std::uint64_t dispatch_text;    // do_syscall_64 (the 32-bit entry indexes the table itself)
    std::uint64_t service_text;     // the service routine's stand-in
    std::uint64_t exit_text;        // syscall_exit_to_user_mode (the 32-bit entry's own syscall_exit)
    std::uint64_t syscall_table;
    std::uint64_t stack_top;        // per logical processor, 16 KB apart
    std::uint64_t percpu;           // per logical processor, 1 MB apart
    std::uint64_t task_data;        // the current task's flags and the service data
    std::uint64_t irq_entry_text;   // the timer vector's entry (asm_sysvec_apic_timer_interrupt; apic_timer_interrupt)
    std::uint64_t irq_handler_text; // sysvec_apic_timer_interrupt; smp_apic_timer_interrupt
    std::uint64_t hrtimer_text;     // hrtimer_interrupt and the tick
    std::uint64_t sched_text;       // scheduler_tick, task_tick_fair
    std::uint64_t irq_exit_text;    // irq_exit and the return to user mode
    std::uint64_t apic_eoi;         // the local APIC's EOI register (fixmap)
    std::uint64_t run_queue;        // per logical processor, with the per-CPU area
    std::uint64_t timer_base;       // per logical processor: the hrtimer queue
};

// A Linux x86-64 kernel: text at 0xffffffff81000000, the direct map at 0xffff888000000000, vmalloc'ed stacks at
// 0xffffc90000000000.
constexpr KernelLayout kLinux64 = {
    8,
    0xffffffff81e00000ull, 0xffffffff81c40000ull, 0xffffffff81300000ull, 0xffffffff81c40400ull,
    0xffffffff82200000ull, 0xffffc90000004000ull, 0xffff88807fc00000ull, 0xffff888100200000ull,
    0xffffffff81e00a00ull, 0xffffffff81b80000ull, 0xffffffff81140000ull, 0xffffffff810c0000ull,
    0xffffffff81b80400ull, 0xffffffffff5fc0b0ull, 0xffff88807fc30000ull, 0xffff88807fc18000ull,
};

// A Linux i386 kernel with the 3 GB/1 GB split of the Pentium 4's day: text at 0xc0100000, everything else in the
// direct map of low memory above 0xc0000000, the local APIC's fixmap page near the top.
constexpr KernelLayout kLinux32 = {
    4,
    0xc0102000ull, 0xc0102000ull, 0xc0160000ull, 0xc0102000ull,
    0xc0400000ull, 0xc1804000ull, 0xc1a00000ull, 0xc1c20000ull,
    0xc0102a00ull, 0xc0118000ull, 0xc0140000ull, 0xc0120000ull,
    0xc0118400ull, 0xfffb50b0ull, 0xc1a30000ull, 0xc1a18000ull,
};

class PathBuilder {
public:
    PathBuilder(KernelPath* out, std::uint64_t pc, unsigned word) : out_(out), pc_(pc), word_(word) {
        out_->length = 0;
    }

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
            sp_ -= word_;
            add(op(C::IntAlu, 1), sp_, true);
        }
    }
    void pop(unsigned n) {
        for (unsigned k = 0; k < n; ++k) {
            add(op(C::IntAlu, 1), sp_, false);
            sp_ += word_;
        }
    }
    // pop %ds (%es, %fs): a segment-register load, microcoded on the Pentium 4.
    void pop_segment(unsigned n) {
        for (unsigned k = 0; k < n; ++k) {
            add(op(C::Microcode, 1), sp_, false);
            sp_ += word_;
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
        sp_ -= word_;
        add(i, sp_, true);                        // the return address
        i.taken = true;
        i.target = target;
        returns_[depth_++] = pc_;
        pc_ = target;
    }
    void ret() {
        Instruction& i = op(C::Return, 1);
        add(i, sp_, false);
        sp_ += word_;
        i.taken = true;
        i.target = returns_[--depth_];
        pc_ = i.target;
    }
    void set_stack(std::uint64_t sp) { sp_ = sp; }
    std::uint64_t sp() const { return sp_; }
    void add(Instruction& i, std::uint64_t address, bool store) const {
        MemOperand& m = i.mem[i.num_mem++];
        m.address = address;
        m.size = static_cast<std::uint8_t>(word_);
        m.is_store = store;
    }

private:
    KernelPath* out_;
    std::uint64_t pc_;
    unsigned word_;
    std::uint64_t sp_ = 0;
    std::uint64_t returns_[8] = {};
    unsigned depth_ = 0;
};

// The service routine's stand-in, the same in both kernels: a short, branch-predictable routine touching the
// task's data, called through the system-call table. The x86-64 dispatcher has it store the return value into
// pt_regs (in_regs); the i386 entry stores it itself after the call.
void service_routine(PathBuilder& b, const KernelLayout& k, bool in_regs) {
    b.push(2);
    b.alu(10);
    b.load(k.task_data + 0x40);
    b.load(k.task_data + 0x48);
    b.branch_not_taken();
    b.alu(8);
    b.load(k.task_data + 0x80);
    b.load(k.task_data + 0xc0);
    b.store(k.task_data + 0x100);
    b.branch_not_taken();
    b.alu(6);
    b.load(k.task_data + 0x140);
    b.load(k.task_data + 0x148);
    b.store(k.task_data + 0x180);
    if (in_regs) b.store(b.sp() + 0x80);  // the return value into pt_regs->ax
    b.pop(2);
    b.ret();
}

// Linux x86-64: entry_SYSCALL_64, do_syscall_64, the exit work and sysretq.
void syscall_path_64(unsigned lp, KernelPath* out) {
    const KernelLayout& k = kLinux64;
    const std::uint64_t stack = k.stack_top + 0x4000ull * lp;
    const std::uint64_t percpu = k.percpu + 0x100000ull * lp;
    PathBuilder b(out, k.entry_text, k.word);

    // entry_SYSCALL_64: switch GS and stack, build pt_regs, clear registers, call the dispatcher.
    b.op(C::Microcode);          // swapgs
    b.store(percpu + 0x10);      // save the user stack pointer
    b.load(percpu + 0x18);       // load the task's kernel stack top
    b.set_stack(stack);
    b.push(21);                  // pt_regs: ss, sp, flags, cs, ip, orig_ax and the fifteen general registers
    b.alu(12);                   // clear the registers not needed (xor r, r)
    b.alu(2);                    // mov %rsp,%rdi; movslq %eax,%rsi
    b.call(k.dispatch_text, false);

    // do_syscall_64: bounds-check the number, index the table, call the service routine.
    b.push(2);
    b.alu(4);
    b.branch_not_taken();        // nr >= NR_syscalls
    b.alu(2);                    // array_index_nospec
    b.call(k.service_text, true, k.syscall_table);
    service_routine(b, k, true);

    // Back in do_syscall_64: the exit work (no signal pending, no tracing).
    b.call(k.exit_text, false);
    b.load(k.task_data);         // current->thread_info.flags
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

// i386 entry_32.S's way in, after the processor's delivery (the IDT gate, the switch to the TSS's kernel stack and
// the five words it pushes: ss, esp, eflags, cs, eip): the entry's own word (orig_eax, or the vector for an
// interrupt) and SAVE_ALL, then the kernel's segments. pt_regs then holds, from the stack pointer up: ebx, ecx,
// edx, esi, edi, ebp, eax, ds, es, fs, orig_eax, eip, cs, eflags, esp, ss (PT_EAX is 6 words up, PT_CS 12,
// PT_EFLAGS 13, PT_OLDSS 15).
void save_all_32(PathBuilder& b, std::uint64_t stack) {
    b.set_stack(stack - 5 * 4);
    b.push(1);                   // pushl %eax (orig_eax), or pushl $~(vector)
    b.alu(1);                    // cld
    b.push(10);                  // %fs, %es, %ds, %eax, %ebp, %edi, %esi, %edx, %ecx, %ebx
    b.alu(1);                    // movl $__USER_DS, %edx
    b.op(C::Microcode, 2);       // movl %edx, %ds
    b.op(C::Microcode, 2);       // movl %edx, %es
    b.alu(1);                    // movl $__KERNEL_PERCPU, %edx
    b.op(C::Microcode, 2);       // movl %edx, %fs
}

// i386 entry_32.S's way out to user mode: restore_all (not to a 16-bit stack segment), restore_nocheck's
// RESTORE_REGS, the entry's own word dropped, and iret to where the delivery came from.
void restore_all_32(PathBuilder& b) {
    b.load(b.sp() + 13 * 4);     // movl PT_EFLAGS(%esp), %eax
    b.load(b.sp() + 15 * 4);     // movb PT_OLDSS(%esp), %ah
    b.load(b.sp() + 12 * 4);     // movb PT_CS(%esp), %al
    b.alu(2);                    // andl; cmpl
    b.branch_not_taken();        // je ldt_ss
    b.pop(7);                    // %ebx, %ecx, %edx, %esi, %edi, %ebp, %eax
    b.pop_segment(3);            // %ds, %es, %fs
    b.alu(1);                    // addl $4, %esp
    b.set_stack(b.sp() + 4);
    Instruction& iret = b.op(C::IndirectJump, 1);  // iret: the far return to the user instruction
    b.add(iret, b.sp(), false);  // it reads eip (and cs, eflags, esp, ss)
    iret.taken = true;
}

// Linux i386 (entry_32.S), entered by int $0x80, which Valgrind's x86 build gives every system call of an i386
// program (the vDSO's sysenter is not offered to the guest): system_call saves the registers and the user
// segments, indexes the table itself, and leaves through restore_all and iret.
void syscall_path_32(unsigned lp, KernelPath* out) {
    const KernelLayout& k = kLinux32;
    PathBuilder b(out, k.entry_text, k.word);
    save_all_32(b, k.stack_top + 0x4000ull * lp);
    b.alu(2);                    // GET_THREAD_INFO(%ebp): the stack pointer masked to the thread_info
    b.load(k.task_data);         // testl $_TIF_WORK_SYSCALL_ENTRY, TI_flags(%ebp)
    b.branch_not_taken();        // jnz syscall_trace_entry
    b.alu(1);                    // cmpl $(nr_syscalls), %eax
    b.branch_not_taken();        // jae syscall_badsys
    b.call(k.service_text, true, k.syscall_table);  // call *sys_call_table(,%eax,4)
    service_routine(b, k, false);
    b.store(b.sp() + 6 * 4);     // movl %eax, PT_EAX(%esp)

    // syscall_exit: no work pending.
    b.alu(1);                    // cli
    b.load(k.task_data);         // movl TI_flags(%ebp), %ecx
    b.alu(1);                    // testl $_TIF_ALLWORK_MASK, %ecx
    b.branch_not_taken();        // jne syscall_exit_work
    restore_all_32(b);
}

// The timer interrupt's handler proper, from its first instruction to its return to the entry code; the same C code
// in both kernels.
void timer_handler(PathBuilder& b, const KernelLayout& k, unsigned lp) {
    const std::uint64_t percpu = k.percpu + 0x100000ull * lp;
    const std::uint64_t rq = k.run_queue + 0x100000ull * lp;
    const std::uint64_t timers = k.timer_base + 0x100000ull * lp;
    // sysvec_apic_timer_interrupt: enter the interrupt, acknowledge it, run the local timer.
    b.push(2);
    b.alu(4);
    b.load(percpu + 0x40);       // irqentry_enter: the context-tracking state
    b.branch_not_taken();
    b.store(percpu + 0x48);
    b.load(percpu + 0x50);       // irq_enter_rcu: preempt_count
    b.alu(2);
    b.store(percpu + 0x50);      // preempt_count += HARDIRQ_OFFSET
    b.store(k.apic_eoi);         // ack: the EOI write
    b.call(k.hrtimer_text, false);

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
    b.call(k.hrtimer_text + 0x400, false);  // tick_sched_timer
    //   tick_sched_timer: jiffies are another CPU's job; account the tick to the user task.
    b.alu(6);
    b.load(percpu + 0x80);
    b.branch_not_taken();
    b.load(k.task_data + 0x200); // account_user_time: the task's utime
    b.alu(3);
    b.store(k.task_data + 0x200);
    b.load(k.task_data + 0x208); // its cputime statistics
    b.alu(3);
    b.store(k.task_data + 0x208);
    b.load(percpu + 0x88);       // run_local_timers: anything due on the timer wheel?
    b.alu(2);
    b.branch_not_taken();
    b.call(k.sched_text, false); // scheduler_tick
    //     scheduler_tick: lock the run queue, update its clock, tick the fair class, unlock.
    b.push(3);
    b.op(C::Microcode);          // lock cmpxchg: raw_spin_lock
    b.op(C::Microcode);          // rdtsc: update_rq_clock
    b.load(rq + 0x08);
    b.alu(6);
    b.store(rq + 0x08);
    b.call(k.sched_text + 0x300, false);  // task_tick_fair: update_curr and the entity's load
    b.load(k.task_data + 0x280); // the entity's exec_start
    b.alu(4);
    b.store(k.task_data + 0x280);
    b.load(k.task_data + 0x288); // sum_exec_runtime
    b.alu(2);
    b.store(k.task_data + 0x288);
    b.load(rq + 0x40);           // the queue's min_vruntime
    b.alu(6);
    b.store(k.task_data + 0x290);  // vruntime
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

    // Back in the handler: leave the interrupt; nothing to do on the way to user mode.
    b.call(k.irq_exit_text, false);  // irq_exit_rcu
    b.load(percpu + 0x50);
    b.alu(2);
    b.store(percpu + 0x50);      // preempt_count -= HARDIRQ_OFFSET
    b.load(percpu + 0x58);       // softirqs pending? none
    b.branch_not_taken();
    b.ret();
    b.call(k.irq_exit_text + 0x200, false);  // irqentry_exit_to_user_mode
    b.load(k.task_data);         // current->thread_info.flags
    b.alu(1);
    b.branch_not_taken();        // no work (no reschedule, no signal)
    b.ret();
    b.pop(2);
    b.ret();
}

// Linux x86-64: asm_sysvec_apic_timer_interrupt, error_entry, the handler, and iretq.
void timer_path_64(unsigned lp, KernelPath* out) {
    const KernelLayout& k = kLinux64;
    const std::uint64_t stack = k.stack_top + 0x4000ull * lp;
    const std::uint64_t percpu = k.percpu + 0x100000ull * lp;
    PathBuilder b(out, k.irq_entry_text, k.word);
    // The processor's delivery (the IDT read and the five words it pushes: ss, rsp, rflags, cs, rip) is not an
    // instruction; the path starts at the handler's first one, on the kernel stack the TSS names.
    b.set_stack(stack - 5 * 8);

    // asm_sysvec_apic_timer_interrupt and error_entry: orig_ax, then pt_regs; from user mode, swapgs.
    b.push(1);                   // push $-1 (orig_ax)
    b.call(k.irq_entry_text + 0x100, false);  // error_entry
    b.push(15);                  // the fifteen general registers
    b.alu(6);                    // clear the registers not needed
    b.load(b.sp() + 17 * 8);     // testb $3, CS(%rsp): from user mode
    b.branch_not_taken();        // jz .Lerror_kernelspace
    b.op(C::Microcode);          // swapgs
    b.load(percpu + 0x18);       // the task's stack (sync_regs finds pt_regs already on it)
    b.ret();
    b.alu(1);                    // mov %rsp, %rdi
    b.call(k.irq_handler_text, false);
    timer_handler(b, k, lp);

    // swapgs_restore_regs_and_return_to_usermode: restore the registers, drop orig_ax, back to the user.
    b.pop(15);
    b.alu(1);                    // add $8, %rsp
    b.op(C::Microcode);          // swapgs
    Instruction& iret = b.op(C::IndirectJump, 2);  // iretq: the far return to the interrupted instruction
    iret.mem[iret.num_mem++] = MemOperand{stack - 5 * 8, 8, false};  // it reads rip (and cs, rflags, rsp, ss)
    iret.taken = true;
}

// Linux i386 (entry_32.S): apic_timer_interrupt saves the registers as system_call does, calls
// smp_apic_timer_interrupt, and leaves through ret_from_intr, resume_userspace and restore_all.
void timer_path_32(unsigned lp, KernelPath* out) {
    const KernelLayout& k = kLinux32;
    PathBuilder b(out, k.irq_entry_text, k.word);
    save_all_32(b, k.stack_top + 0x4000ull * lp);
    b.alu(1);                    // movl %esp, %eax
    b.call(k.irq_handler_text, false);  // smp_apic_timer_interrupt
    timer_handler(b, k, lp);

    // ret_from_intr and resume_userspace: back to user mode, no work pending.
    b.alu(2);                    // GET_THREAD_INFO(%ebp)
    b.load(b.sp() + 13 * 4);     // movl PT_EFLAGS(%esp), %eax
    b.load(b.sp() + 12 * 4);     // movb PT_CS(%esp), %al
    b.alu(2);                    // andl $(X86_EFLAGS_VM | SEGMENT_RPL_MASK), %eax; cmpl $USER_RPL, %eax
    b.branch_not_taken();        // jb resume_kernel
    b.alu(1);                    // cli
    b.load(k.task_data);         // movl TI_flags(%ebp), %ecx
    b.alu(1);                    // andl $_TIF_WORK_MASK, %ecx
    b.branch_not_taken();        // jne work_pending
    restore_all_32(b);
}

}  // namespace

void build_kernel_path(unsigned lp, KernelPath* out, KernelAbi abi) {
    if (abi == KernelAbi::kLinux32) syscall_path_32(lp, out);
    else syscall_path_64(lp, out);
}

void build_timer_interrupt_path(unsigned lp, KernelPath* out, KernelAbi abi) {
    if (abi == KernelAbi::kLinux32) timer_path_32(lp, out);
    else timer_path_64(lp, out);
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
