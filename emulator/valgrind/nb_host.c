/* The services the C++ runtime asks of the tool (nb_host_*, declared in nb_runtime.h): memory, guest memory, the
 * output files, the source place of an address, signals to guest threads and the record batches. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"

#include "emulator/valgrind/nb_guest.h"
#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

void* nb_host_malloc(size_t size) { return VG_(malloc)("netburst.rt", size); }
void nb_host_free(void* p) { VG_(free)(p); }
void nb_host_panic(const char* message) { VG_(tool_panic)((HChar*)message); }

int nb_host_read_guest(uint64_t address, void* buffer, unsigned size) {
    if (!VG_(am_is_valid_for_client)((Addr)address, size, VKI_PROT_READ)) return 0;
    VG_(memcpy)(buffer, (const void*)(Addr)address, size);
    return 1;
}

int nb_host_write_guest(uint64_t address, const void* buffer, unsigned size) {
    if (!VG_(am_is_valid_for_client)((Addr)address, size, VKI_PROT_WRITE)) return 0;
    VG_(memcpy)((void*)(Addr)address, buffer, size);
    return 1;
}

/* ---- Output files ----------------------------------------------------------------------------------------------- */

Int nb_record_fd = -1;
Int nb_samples_fd = -1;

/* A write that fails closes the file, once, with `message`: what follows is not written. */
static void write_or_stop(Int* fd, const void* bytes, SizeT size, const HChar* message) {
    if (*fd >= 0 && !nb_write_all(*fd, bytes, size)) {
        VG_(umsg)("netburst: %s\n", message);
        VG_(close)(*fd);
        *fd = -1;
    }
}

void nb_host_write_record(const void* bytes, size_t size) {
    write_or_stop(&nb_record_fd, bytes, size, "writing the --record file failed; recording stops");
}

void nb_host_write_samples(const void* bytes, size_t size) {
    write_or_stop(&nb_samples_fd, bytes, size, "writing the samples file failed; sampling output stops");
}

/* ---- Debug information ------------------------------------------------------------------------------------------ */

int nb_host_describe_ip(uint64_t ip, struct nb_source_place* out) {
    const DiEpoch ep = VG_(current_DiEpoch)();
    const HChar* fn = NULL;
    const HChar* file = NULL;
    const HChar* dir = NULL;
    UInt line = 0;
    out->function = VG_(get_fnname)(ep, (Addr)ip, &fn) ? fn : NULL;
    if (VG_(get_filename_linenum)(ep, (Addr)ip, &file, &dir, &line)) {
        out->file = file;
        out->dir = dir;
        out->line = line;
    } else {
        out->file = out->dir = NULL;
        out->line = 0;
    }
    return out->function != NULL || out->file != NULL;
}

/* ---- Threads and signals ---------------------------------------------------------------------------------------- */

uint64_t nb_host_gettid(void) { return (uint64_t)VG_(gettid)(); }

/* Valgrind's core has tkill but its tool headers do not declare it; the tool links the core statically. */
extern Int VG_(tkill)(Int lwpid, Int signo);

/* Valgrind takes a signal sent to a thread that runs guest code (its signals are blocked then) when its scheduler
 * next polls: at the end of the thread's time slice (100,000 blocks: a period shorter than that would see one
 * interrupt per slice) or at a blocking system call. For the running thread, the slice is ended at the next block:
 * its event counter (the guest state's host_EvC_COUNTER, which the dispatcher decrements at every block and leaves
 * for the scheduler when it runs out) is set to zero, and the scheduler then polls. */
void nb_host_signal_thread(uint64_t lwp, int signo) {
    VG_(tkill)((Int)lwp, signo);
    if ((Int)lwp == VG_(gettid)()) {
        const UInt zero = 0;
        VG_(set_shadow_regs_area)(VG_(get_running_tid)(), 0, offsetof(NbGuestState, host_EvC_COUNTER), sizeof zero,
                                  (const UChar*)&zero);
    }
}

void nb_host_short_batches(int on) { nb_buffer_short_batches(on != 0); }
