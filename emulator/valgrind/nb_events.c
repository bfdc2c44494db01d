/* What happens between blocks: the MSR channel (client requests), thread switches, thread exit, fork and exec.
 * Each of them first runs the buffered records through the emulator (nb_flush), so that the emulator has seen
 * exactly the instructions the guest has executed. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

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

static Bool handle_client_request(ThreadId tid, UWord* args, UWord* ret) {
    if (!VG_IS_TOOL_USERREQ('N', 'B', args[0])) return False;
    make_current(tid);
    nb_flush();  /* account every instruction before the request */
    uint64_t value = 0;
    switch (args[0]) {
    case NB_REQ_QUERY: {
        if (!guest_writable(args[1], sizeof(struct nb_emulator_info))) {
            *ret = NB_GP_FAULT;
            break;
        }
        struct nb_emulator_info info;
        nb_rt_query(&info);
        VG_(memcpy)((void*)args[1], &info, sizeof info);
        *ret = NB_OK;
        break;
    }
    case NB_REQ_WRMSR:
        *ret = (UWord)nb_rt_wrmsr((uint32_t)args[1], (uint64_t)args[2]);
        nb_snapshots_recheck();  /* IA32_PEBS_ENABLE, perhaps */
        break;
    case NB_REQ_RDMSR:
    case NB_REQ_RDPMC:
        if (!guest_writable(args[2], sizeof value)) {
            *ret = NB_GP_FAULT;
            break;
        }
        *ret = (UWord)(args[0] == NB_REQ_RDMSR ? nb_rt_rdmsr((uint32_t)args[1], &value)
                                               : nb_rt_rdpmc((uint32_t)args[1], &value));
        if (*ret == NB_OK) VG_(memcpy)((void*)args[2], &value, sizeof value);
        break;
    case NB_REQ_COUNTER_STATUS:
        *ret = (UWord)nb_rt_counter_status((uint32_t)args[1]);
        break;
    case NB_REQ_PMI_SIGNAL:
        if ((Word)args[1] < 0 || args[1] > VKI_SIGRTMAX) {
            *ret = NB_GP_FAULT;
            break;
        }
        nb_rt_set_pmi_signal((int)args[1]);
        *ret = NB_OK;
        break;
    case NB_REQ_TAKE_PMI: {
        if (!guest_writable(args[1], sizeof(struct nb_pmi))) {
            *ret = NB_GP_FAULT;
            break;
        }
        struct nb_pmi pmi;
        *ret = (UWord)nb_rt_take_pmi(&pmi);
        if (*ret == NB_OK) VG_(memcpy)((void*)args[1], &pmi, sizeof pmi);
        break;
    }
    case NB_REQ_TAKE_PEBS: {
        if (!guest_writable(args[1], sizeof(struct nb_pebs_note))) {
            *ret = NB_GP_FAULT;
            break;
        }
        struct nb_pebs_note note;
        *ret = (UWord)nb_rt_take_pebs(&note);
        if (*ret == NB_OK) VG_(memcpy)((void*)args[1], &note, sizeof note);
        break;
    }
    default:
        return False;
    }
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

static void pre_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nargs) {
    (void)nargs;
    if (nb_itimer_handles(syscallno, args[0])) nb_itimer_pre_syscall(syscallno, args);
    if (syscallno == __NR_execve || syscallno == __NR_execveat) {
        /* If the exec succeeds this image ends without fini: report what it counted. If it fails, the file is
         * rewritten at the end. */
        make_current(tid);
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
