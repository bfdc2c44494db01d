/* The record buffer: instrumented code appends a record per executed guest instruction (nb_instrument.c,
 * nb_runtime.h), and the buffer hands the records to the emulator in batches: when a block's records might not
 * fit (nb_flush_from_code, called by the block), and through nb_flush before anything that must see the emulator
 * exact. What has to follow a batch (the progress file, the emulated itimers) registers a hook here, so that the
 * buffer knows nothing of it. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"

#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

#define NB_BUF_WORDS (1u << 14)

/* While a guest thread takes overflow interrupts as signals (nb_host_short_batches), the emulator runs the records
 * in batches of at most NB_PMI_BATCH_WORDS: an interrupt is signalled when the batch it was taken in is consumed,
 * so the batch bounds how far the guest has run past the interrupt's instruction by then. */
#define NB_PMI_BATCH_WORDS 256u

static uint64_t nb_buf[NB_BUF_WORDS];
uint64_t* nb_buf_ptr = nb_buf;
static uint64_t* nb_buf_done = nb_buf;  /* the records before it went through the emulator already */
uint64_t* nb_buf_limit = nb_buf + NB_BUF_WORDS;

void nb_buffer_short_batches(Bool on) { nb_buf_limit = nb_buf + (on ? NB_PMI_BATCH_WORDS : NB_BUF_WORDS); }

/* ---- Hooks ------------------------------------------------------------------------------------------------------ */

#define NB_FLUSH_HOOKS 4

static struct {
    void (*after_flush)(void);
    void (*in_code)(void);
} hooks[NB_FLUSH_HOOKS];
static UInt num_hooks;

void nb_buffer_add_hooks(void (*after_flush)(void), void (*in_code)(void)) {
    tl_assert(num_hooks < NB_FLUSH_HOOKS);
    hooks[num_hooks].after_flush = after_flush;
    hooks[num_hooks].in_code = in_code;
    num_hooks++;
}

/* ---- Flushing --------------------------------------------------------------------------------------------------- */

void nb_flush(void) {
    if (nb_buf_ptr != nb_buf) {
        if (nb_buf_ptr != nb_buf_done) nb_rt_consume(nb_buf_done, nb_buf_ptr);
        nb_buf_ptr = nb_buf_done = nb_buf;
        for (UInt i = 0; i < num_hooks; i++)
            if (hooks[i].after_flush) hooks[i].after_flush();
    }
}

/* A helper called from the middle of a block cannot flush: the block holds the buffer position in a temporary
 * and commits relative to it, so it would commit its earlier records again. It consumes the committed records and
 * leaves them in place. */
void nb_consume_committed(void) {
    if (nb_buf_ptr != nb_buf_done) {
        nb_rt_consume(nb_buf_done, nb_buf_ptr);
        nb_buf_done = nb_buf_ptr;
    }
}

VG_REGPARM(0) void nb_flush_from_code(void) {
    nb_flush();
    for (UInt i = 0; i < num_hooks; i++)
        if (hooks[i].in_code) hooks[i].in_code();
}
