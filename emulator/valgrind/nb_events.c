/* What happens between blocks: the MSR channel (client requests), thread switches, thread exit, fork and exec.
 * Each of them first runs the buffered records through the emulator (nb_flush), so that the emulator has seen
 * exactly the instructions the guest has executed. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "emulator/protocol/guest_elf.h"
#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

/* The thread whose records are in the buffer and whose PMU is installed. */
static ThreadId current_tid = VG_INVALID_THREADID;

static void make_current(ThreadId tid) {
    if (tid == current_tid) return;
    nb_flush();
    nb_rt_switch_thread(tid);
    current_tid = tid;
}

/* ---- The MSR channel ----------------------------------------------------------------------------------------- */

static Bool guest_writable(UWord address, SizeT size) {
    return address != 0 && VG_(am_is_valid_for_client)(address, size, VKI_PROT_WRITE);
}

static Bool guest_readable(UWord address, SizeT size) {
    return address != 0 && VG_(am_is_valid_for_client)(address, size, VKI_PROT_READ);
}

/* The structure of the guest's that a request fills (its size; 0 for none) and where it is. */
static SizeT answer_size(UWord request) {
    switch (request) {
    case NB_REQ_QUERY: return sizeof(struct nb_emulator_info);
    case NB_REQ_RDMSR: case NB_REQ_RDPMC: case NB_REQ_COUNTER_INTERVAL: return sizeof(uint64_t);
    case NB_REQ_TAKE_PMI: return sizeof(struct nb_pmi);
    case NB_REQ_TAKE_PEBS: return sizeof(struct nb_pebs_note);
    default: return 0;
    }
}

static UWord answer_address(const UWord* args) {
    return args[0] == NB_REQ_RDMSR || args[0] == NB_REQ_RDPMC || args[0] == NB_REQ_COUNTER_INTERVAL ? args[2]
                                                                                                      : args[1];
}

/* What a request hands back in the guest's structure. */
union answer {
    struct nb_emulator_info info;
    uint64_t value;
    struct nb_pmi pmi;
    struct nb_pebs_note pebs;
};

/* Runs one request; False for a request the tool does not know. */
static Bool run_request(const UWord* args, UWord* ret, union answer* answer) {
    switch (args[0]) {
    case NB_REQ_QUERY:
        nb_rt_query(&answer->info);
        *ret = NB_OK;
        return True;
    case NB_REQ_WRMSR:
        *ret = (UWord)nb_rt_wrmsr((uint32_t)args[1], (uint64_t)(uint32_t)args[2] | (uint64_t)(uint32_t)args[3] << 32);
        nb_snapshots_recheck();  /* IA32_PEBS_ENABLE, perhaps */
        return True;
    case NB_REQ_RDMSR:
        *ret = (UWord)nb_rt_rdmsr((uint32_t)args[1], &answer->value);
        return True;
    case NB_REQ_RDPMC:
        *ret = (UWord)nb_rt_rdpmc((uint32_t)args[1], &answer->value);
        return True;
    case NB_REQ_COUNTER_STATUS:
        *ret = (UWord)nb_rt_counter_status((uint32_t)args[1]);
        return True;
    case NB_REQ_COUNTER_INTERVAL:
        *ret = (UWord)nb_rt_counter_interval((uint32_t)args[1], &answer->value);
        return True;
    case NB_REQ_PMI_SIGNAL:
        if ((Word)args[1] < 0 || args[1] > VKI_SIGRTMAX) {
            *ret = NB_GP_FAULT;
            return True;
        }
        nb_rt_set_pmi_signal((int)args[1]);
        *ret = NB_OK;
        return True;
    case NB_REQ_TAKE_PMI:
        *ret = (UWord)nb_rt_take_pmi(&answer->pmi);
        return True;
    case NB_REQ_TAKE_PEBS:
        *ret = (UWord)nb_rt_take_pebs(&answer->pebs);
        return True;
    default:
        return False;
    }
}

/* NB_REQ_WRMSR_LIST: each write as NB_REQ_WRMSR makes it, at the same point of the program. */
static UWord write_list(const UWord* args) {
    const UWord count = args[2];
    if (count > NB_WRMSR_LIST_MAX || (count != 0 && !guest_readable(args[1], count * sizeof(struct nb_wrmsr_entry))) ||
        (args[3] != 0 && !guest_writable(args[3], sizeof(uint32_t))))
        return NB_GP_FAULT;
    const struct nb_wrmsr_entry* list = (const struct nb_wrmsr_entry*)args[1];
    UWord result = NB_OK;
    uint32_t made = 0;
    for (; made < count; ++made) {
        struct nb_wrmsr_entry w;
        VG_(memcpy)(&w, &list[made], sizeof w);
        result = (UWord)nb_rt_wrmsr(w.msr, w.value);
        nb_snapshots_recheck();  /* IA32_PEBS_ENABLE, perhaps */
        if (result != NB_OK) break;
    }
    if (args[3] != 0) VG_(memcpy)((void*)args[3], &made, sizeof made);
    return result;
}

/* NB_REQ_READ_COUNTERS: each CCCR of the mask (as NB_REQ_RDMSR) and then its counter (as NB_REQ_RDPMC). */
static UWord read_counters(const UWord* args) {
    const UWord mask = args[1];
    if (mask >> NB_NUM_PMU_COUNTERS != 0) return NB_GP_FAULT;
    if (mask == 0) return NB_OK;
    const SizeT size = (SizeT)(64 - __builtin_clzll((unsigned long long)mask)) * sizeof(uint64_t);
    if (!guest_writable(args[2], size) || !guest_writable(args[3], size)) return NB_GP_FAULT;
    uint64_t* cccr = (uint64_t*)args[2];
    uint64_t* value = (uint64_t*)args[3];
    for (UWord left = mask; left != 0; left &= left - 1) {
        const uint32_t c = (uint32_t)__builtin_ctzll((unsigned long long)left);
        uint64_t control = 0, v = 0;
        const int result = nb_rt_read_counter(c, &control, &v);
        if (result != NB_OK) return (UWord)result;
        VG_(memcpy)(&cccr[c], &control, sizeof control);
        VG_(memcpy)(&value[c], &v, sizeof v);
    }
    return NB_OK;
}

/* A request whose structure the guest cannot take is refused (#GP) before it runs: an interrupt or a PEBS record
 * taken and not handed over would be lost. */
static Bool handle_client_request(ThreadId tid, UWord* args, UWord* ret) {
    if (!VG_IS_TOOL_USERREQ('N', 'B', args[0])) return False;
    make_current(tid);
    nb_flush();  /* account every instruction before the request */
    const SizeT size = answer_size(args[0]);
    union answer answer;
    if (args[0] == NB_REQ_WRMSR_LIST) *ret = write_list(args);
    else if (args[0] == NB_REQ_READ_COUNTERS) *ret = read_counters(args);
    else if (size != 0 && !guest_writable(answer_address(args), size)) *ret = NB_GP_FAULT;
    else if (!run_request(args, ret, &answer)) return False;
    else if (size != 0 && *ret == NB_OK) VG_(memcpy)((void*)answer_address(args), &answer, size);
    nb_snapshots_follow_pebs();  /* after an MSR write, or a thread's exit or a fork since the last request */
    return True;
}

/* ---- Threads ------------------------------------------------------------------------------------------------- */

static void start_client_code(ThreadId tid, ULong blocks_dispatched) {
    (void)blocks_dispatched;
    make_current(tid);
}

static void thread_created(ThreadId parent, ThreadId child) {
    (void)parent;
    nb_rt_thread_created(child);
}

static void thread_exited(ThreadId tid) {
    make_current(tid);
    nb_flush();
    nb_rt_thread_exited(tid);
    nb_snapshots_recheck();  /* its PMU may have armed PEBS */
    current_tid = VG_INVALID_THREADID;
}

/* ---- fork and exec ------------------------------------------------------------------------------------------- */

static void before_fork(ThreadId tid) {
    make_current(tid);
    nb_flush();  /* otherwise both processes would run the parent's buffered records */
    nb_samples_before_fork();  /* and write the parent's buffered samples */
}

static void in_fork_child(ThreadId tid) {
    nb_files_after_fork();
    nb_clock_fork_child();
    nb_itimer_fork_child();
    nb_rt_fork_child(tid);
    nb_snapshots_recheck();  /* the child's PMU starts without PEBS */
    current_tid = tid;
}

/* Valgrind's core, not in the tool headers: the raw system call (coregrind/pub_core_syscall.h). */
extern SysRes VG_(do_syscall)(UWord sysno, UWord a1, UWord a2, UWord a3, UWord a4, UWord a5, UWord a6, UWord a7,
                              UWord a8);
#define NB_ADDR_NO_RANDOMIZE 0x0040000 /* <linux/personality.h>; Valgrind's vki headers lack it */

/* Before an execve, the layout rule netburst-run applies to the program it starts (guest_elf.h) for the image to
 * come, which Valgrind starts afresh with the tool's build for its platform: an i386 image that an x86-64 program
 * executes runs without address randomisation, as it would when started directly. The personality outlives the
 * exec; an exec that fails leaves this image's layout as it was (it is placed already). */
static void fix_layout_of_next_image(const HChar* path, Bool absolute_only) {
    if (path == NULL || !VG_(am_is_valid_for_client)((Addr)path, 1, VKI_PROT_READ)) return;
    if (absolute_only && path[0] != '/') return;
    const SysRes fd = VG_(open)(path, VKI_O_RDONLY, 0);
    if (sr_isError(fd)) return;
    unsigned char header[NB_ELF_HEADER_BYTES];
    const Int n = VG_(read)((Int)sr_Res(fd), header, (Int)sizeof header);
    VG_(close)((Int)sr_Res(fd));
    if (n <= 0 || !nb_guest_elf_wants_fixed_layout(nb_guest_elf_of(header, (unsigned long)n))) return;
    const SysRes current = VG_(do_syscall)(__NR_personality, 0xffffffff, 0, 0, 0, 0, 0, 0, 0);
    if (!sr_isError(current))
        VG_(do_syscall)(__NR_personality, sr_Res(current) | NB_ADDR_NO_RANDOMIZE, 0, 0, 0, 0, 0, 0, 0);
}

static void pre_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nargs) {
    (void)nargs;
    if (nb_itimer_handles(syscallno, args[0])) nb_itimer_pre_syscall(syscallno, args);
    if (nb_clock_watches_wait(syscallno)) {
        make_current(tid);  /* the wait starts at this thread's emulated time */
        nb_clock_pre_wait(tid, syscallno, args);
    }
    if (syscallno == __NR_execve || syscallno == __NR_execveat) {
        /* If the exec succeeds this image ends without fini: report what it counted. If it fails, the file is
         * rewritten at the end. */
        make_current(tid);
        /* execveat's path is relative to a directory descriptor unless absolute; only the absolute one is read. */
        if (syscallno == __NR_execve) fix_layout_of_next_image((const HChar*)args[0], False);
        else fix_layout_of_next_image((const HChar*)args[1], True);
        nb_flush();
        nb_samples_close(False);
        nb_write_results(False);
    }
}

static void post_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nargs, SysRes res) {
    (void)nargs;
    if (nb_clock_rewrites(syscallno)) {
        make_current(tid);  /* the clock reads this thread's emulator state */
        nb_clock_post_syscall(tid, syscallno, args, res);
    }
    if (nb_itimer_handles(syscallno, args[0])) {
        make_current(tid);  /* the timers read this thread's emulator state */
        nb_itimer_post_syscall(syscallno, args, res);
    }
    if (nb_clock_watches_wait(syscallno)) {
        make_current(tid);
        nb_clock_post_wait(tid, syscallno, res);
    }
    nb_procfs_post_syscall(syscallno, args, res);
}

void nb_events_register(void) {
    VG_(needs_client_requests)(handle_client_request);
    VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
    VG_(track_start_client_code)(start_client_code);
    VG_(track_pre_thread_ll_create)(thread_created);
    VG_(track_pre_thread_ll_exit)(thread_exited);
    VG_(atfork)(before_fork, NULL, in_fork_child);
}
