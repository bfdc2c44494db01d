/* The PAPI component "netburst": Intel NetBurst (Pentium 4) performance counters, on the NetBurst emulator under
 * netburst-run, or through the kernel MSR device on a real Pentium 4 (doc/real-pentium4.md).
 *
 * This file is only glue: each PAPI callback converts PAPI's arguments, calls the component core
 * (component/glue_api.h, C++) and turns its status into a PAPI error code. The hardware table, the event parser,
 * the allocator, the encoder and the backends live beneath it. doc/papi-component.md describes the whole.
 *
 * PAPI counts with this component as component 0, so that the presets and PAPI's test suites use it. Overflow and
 * profiling take the PMU's overflow interrupt where the backend can deliver it as a signal (the emulator:
 * hardware_intr = 1, set_overflow and dispatch_timer below, doc/sampling.md "PAPI's hardware overflow"), and PAPI's
 * software emulation otherwise and with PAPI_OVERFLOW_FORCE_SW; multiplexing is PAPI's software multiplexing. An
 * event with :precise samples by PEBS through the same interrupt path, and papi_netburst_get_pebs_sample (below,
 * papi_netburst.h) gives the handler the record (doc/sampling.md "PEBS through PAPI"). */
#include <string.h>

#include "papi.h"
#include "papi_internal.h"
#include "papi_memory.h"
#include "papi_vector.h"
#include "sw_multiplex.h"
#include "extras.h"
#include "threads.h"

#include "component/glue_api.h"

extern papi_vector_t _netburst_vector;

/* PAPI's error code for a core status. */
static int papi_status(int status)
{
	switch (status) {
	case NB_STATUS_OK: return PAPI_OK;
	case NB_STATUS_NO_EVENT: return PAPI_ENOEVNT;
	case NB_STATUS_CONFLICT: return PAPI_ECNFLCT;
	case NB_STATUS_TOO_MANY: return PAPI_ECOUNT;
	case NB_STATUS_UNSUPPORTED: return PAPI_ENOSUPP;
	case NB_STATUS_SYSTEM: return PAPI_ESYS;
	case NB_STATUS_INVALID: return PAPI_EINVAL;
	case NB_STATUS_NO_MEMORY: return PAPI_ENOMEM;
	case NB_STATUS_DISABLED: return PAPI_ECMP_DISABLED;
	default: return PAPI_EBUG;
	}
}

/* Copies text into one of PAPI's fixed-size strings, cutting it if it does not fit. */
static void copy_string(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Failures the user needs explained (a conflict, an event the emulator cannot count) go to PAPI's error output,
 * which PAPI shows when the error level is verbose (PAPI_set_debug(PAPI_VERB_ECONT)) or $PAPI_VERBOSE is set,
 * and to the component debug log. */
static int explain(int status, const char *what, const char *why)
{
	if (status != NB_STATUS_OK && why[0] != '\0') {
		SUBDBG("netburst: %s: %s\n", what, why);
		PAPIERROR("netburst: %s: %s", what, why);
	}
	return papi_status(status);
}

static void set_cache(PAPI_mh_cache_info_t *cache, int type, const struct nb_cache_geometry *geometry)
{
	cache->type = type;
	cache->size = (int)geometry->size;
	cache->line_size = (int)geometry->line;
	cache->num_lines = geometry->line ? (int)(geometry->size / geometry->line) : 0;
	cache->associativity = (int)geometry->ways;
}

static void set_tlb(PAPI_mh_tlb_info_t *tlb, int type, unsigned entries, unsigned ways)
{
	tlb->type = type;
	tlb->num_entries = (int)entries;
	tlb->page_size = 4096;
	tlb->associativity = (int)ways;
}

/* Under netburst-run, PAPI's own detection does not describe the Pentium 4 as the component knows it: the vendor,
 * family and model come from /proc/cpuinfo (the host's with --cpu-view=host), and the caches from CPUID, which
 * Valgrind alone would answer as a Core i7 of its own. Programs
 * and PAPI's tools ask PAPI_get_hardware_info() what they run on (papi_avail's header, papi_mem_info, the
 * high-level API's JSON; tests that size their arrays from the caches, or run only on a Pentium 4; PAPI's
 * sysdetect component behind papi_hardware_avail asks CPUID itself), so the component, which PAPI initialises
 * after that detection, puts the emulated processor there: GenuineIntel family 15, the model, and the caches and
 * TLBs of the core model, as a Pentium 4's CPUID leaf 2 would give them (the L2's 64-byte sectors as its lines,
 * the trace cache's size in uops). The topology and the clock are left as PAPI read them: netburst-run puts the
 * emulated processor's /proc/cpuinfo and /sys/devices/system/cpu in the program's view (doc/guest-cpu.md), and with
 * --cpu-view=host they are the host's, on which the guest's threads run. */
static void describe_emulated_processor(const struct nb_emulated_cpu *cpu, const char *description)
{
	PAPI_hw_info_t *hw = &_papi_hwi_system_info.hw_info;
	PAPI_mh_info_t *mh = &hw->mem_hierarchy;
	PAPI_mh_level_t *level;

	if (!cpu->emulated)
		return;
	hw->vendor = PAPI_VENDOR_INTEL;
	copy_string(hw->vendor_string, sizeof hw->vendor_string, "GenuineIntel");
	copy_string(hw->model_string, sizeof hw->model_string, description);
	hw->cpuid_family = 15;
	hw->cpuid_model = (int)cpu->model;
	hw->cpuid_stepping = (int)cpu->stepping;
	hw->model = (int)cpu->model;
	hw->revision = (float)cpu->stepping;
	hw->virtualized = 1;
	copy_string(hw->virtual_vendor_string, sizeof hw->virtual_vendor_string, "netburst-run");
	copy_string(hw->virtual_vendor_version, sizeof hw->virtual_vendor_version, "");

	memset(mh, 0, sizeof *mh);
	level = &mh->level[0];
	set_tlb(&level->tlb[0], PAPI_MH_TYPE_INST, cpu->itlb_entries, cpu->itlb_ways);
	set_tlb(&level->tlb[1], PAPI_MH_TYPE_DATA, cpu->dtlb_entries, cpu->dtlb_entries);
	set_cache(&level->cache[0], PAPI_MH_TYPE_DATA | PAPI_MH_TYPE_WT | PAPI_MH_TYPE_LRU, &cpu->l1d);
	level->cache[1].type = PAPI_MH_TYPE_TRACE;
	level->cache[1].size = (int)cpu->trace_cache_uops;
	level->cache[1].associativity = (int)cpu->trace_cache_ways;
	set_cache(&mh->level[1].cache[0], PAPI_MH_TYPE_UNIFIED | PAPI_MH_TYPE_WB | PAPI_MH_TYPE_LRU, &cpu->l2);
	mh->levels = 2;
	if (cpu->l3.size) {
		set_cache(&mh->level[2].cache[0], PAPI_MH_TYPE_UNIFIED | PAPI_MH_TYPE_WB | PAPI_MH_TYPE_LRU, &cpu->l3);
		mh->levels = 3;
	}
}

static int _netburst_init_component(int cidx)
{
	struct nb_component_info info;
	papi_vector_t *v = &_netburst_vector;
	int status, retval;

	v->cmp_info.CmpIdx = cidx;
	status = nb_component_init(&info);
	if (status != NB_STATUS_OK) {
		copy_string(v->cmp_info.disabled_reason, sizeof v->cmp_info.disabled_reason, info.disabled_reason);
		v->cmp_info.disabled = PAPI_ECMP;
		return PAPI_ECMP;
	}
	copy_string(v->cmp_info.description, sizeof v->cmp_info.description, info.description);
	describe_emulated_processor(&info.cpu, info.description);
	v->cmp_info.num_native_events = (int)info.num_native_events;
	if (info.preset_warning[0])
		PAPIERROR("netburst: %s", info.preset_warning);
	/* Real hardware: counters count a logical CPU, so an event set may count any CPU (PAPI_CPU_ATTACH) or the
	 * CPU the thread is pinned to (PAPI_GRN_SYS, the same as PAPI_GRN_THR here). doc/real-pentium4.md. */
	if (info.cpu_attach) {
		v->cmp_info.cpu = 1;
		v->cmp_info.available_granularities = PAPI_GRN_THR | PAPI_GRN_SYS;
	}
	/* Hardware overflow where the backend can interrupt the program: the emulator sends each overflow interrupt of
	 * the thread's PMU as this signal. The kernel MSR backend cannot (the kernel owns the PMI), so PAPI emulates
	 * overflow with its interval timer there. */
	if (info.interrupt_signal != 0) {
		v->cmp_info.hardware_intr = 1;
		v->cmp_info.hardware_intr_sig = info.interrupt_signal;
	}
	if (info.notes[0]) {
		SUBDBG("netburst: %s\n", info.notes);
		PAPIWARN("netburst: %s", info.notes);
	}

	/* Exactly one section of the compiled-in preset table, generated from the component's preset table. */
	retval = _papi_load_preset_table(info.preset_section, 0, cidx);
	if (retval != PAPI_OK || v->cmp_info.num_preset_events == 0)
		PAPIERROR("netburst: no presets from section \"%s\" of the preset table (%d); only native events are "
			  "available", info.preset_section, retval);
	return PAPI_OK;
}

static int _netburst_shutdown_component(void)
{
	nb_component_shutdown();
	return PAPI_OK;
}

static int _netburst_init_thread(hwd_context_t *ctx)
{
	return papi_status(nb_thread_init((struct nb_thread *)ctx));
}

static int _netburst_shutdown_thread(hwd_context_t *ctx)
{
	nb_thread_shutdown((struct nb_thread *)ctx);
	return PAPI_OK;
}

static int _netburst_init_control_state(hwd_control_state_t *ctl)
{
	nb_event_set_init((struct nb_event_set *)ctl, _netburst_vector.cmp_info.default_domain);
	return PAPI_OK;
}

static int _netburst_update_control_state(hwd_control_state_t *ctl, NativeInfo_t *native, int count,
					  hwd_context_t *ctx)
{
	unsigned codes[NB_MAX_EVENTS];
	char why[NB_REASON_LEN] = "";
	int i, status;

	if (count > NB_MAX_EVENTS)
		return explain(NB_STATUS_TOO_MANY, "adding events", "more native events than the PMU's 18 counters");
	for (i = 0; i < count; i++) {
		codes[i] = (unsigned)native[i].ni_event;
		native[i].ni_position = i; /* read() reports values in this order */
	}
	status = nb_event_set_update((struct nb_event_set *)ctl, (const struct nb_thread *)ctx, codes, (unsigned)count,
				     why, sizeof why);
	return explain(status,
		       status == NB_STATUS_UNSUPPORTED ? "cannot add the event"
						       : "these events cannot be counted together",
		       why);
}

static int _netburst_cleanup_eventset(hwd_control_state_t *ctl)
{
	nb_event_set_cleanup((struct nb_event_set *)ctl);
	return PAPI_OK;
}

static int _netburst_start(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	char why[NB_REASON_LEN];
	why[0] = '\0'; /* not = "": that clears all 1024 bytes at every start, in the program's own instructions */
	return explain(nb_event_set_start((struct nb_event_set *)ctl, (struct nb_thread *)ctx, why, sizeof why),
		       "cannot start", why);
}

static int _netburst_stop(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	return papi_status(nb_event_set_stop((struct nb_event_set *)ctl, (struct nb_thread *)ctx));
}

static int _netburst_read(hwd_context_t *ctx, hwd_control_state_t *ctl, long long **values, int flags)
{
	struct nb_event_set *set = (struct nb_event_set *)ctl;
	int status;
	(void)ctx;
	(void)flags;
	status = nb_event_set_read(set);
	*values = set->values;
	return papi_status(status);
}

static int _netburst_reset(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	(void)ctx;
	return papi_status(nb_event_set_reset((struct nb_event_set *)ctl));
}

static int _netburst_write(hwd_context_t *ctx, hwd_control_state_t *ctl, long long *values)
{
	(void)ctx;
	return papi_status(nb_event_set_write((struct nb_event_set *)ctl, values));
}

static int _netburst_set_domain(hwd_control_state_t *ctl, int domain)
{
	char why[NB_REASON_LEN] = "";
	return explain(nb_event_set_set_domain((struct nb_event_set *)ctl, NULL, domain, why, sizeof why),
		       "cannot change the domain", why);
}

static int _netburst_ctl(hwd_context_t *ctx, int code, _papi_int_option_t *option)
{
	char why[NB_REASON_LEN] = "";

	switch (code) {
	case PAPI_DOMAIN:
		return explain(nb_event_set_set_domain((struct nb_event_set *)option->domain.ESI->ctl_state,
						       (const struct nb_thread *)ctx, option->domain.domain, why,
						       sizeof why),
			       "cannot change the domain", why);
	case PAPI_GRANUL:
		/* Counts follow the thread: the emulator gives each thread its own PMU. On real hardware the thread is
		 * pinned and its logical CPU counted, which is what PAPI_GRN_SYS asks for too. */
		if (option->granularity.granularity == PAPI_GRN_THR)
			return PAPI_OK;
		if (option->granularity.granularity == PAPI_GRN_SYS && _netburst_vector.cmp_info.cpu)
			return PAPI_OK;
		return PAPI_EINVAL;
	case PAPI_CPU_ATTACH:
		return explain(nb_event_set_attach_cpu((struct nb_event_set *)option->cpu.ESI->ctl_state,
						       (unsigned)option->cpu.cpu_num, why, sizeof why),
			       "cannot attach to the CPU", why);
	case PAPI_DEF_ITIMER:
	case PAPI_DEF_ITIMER_NS:
		/* PAPI's software overflow and multiplexing timers are PAPI's; nothing in the PMU depends on them. */
		return PAPI_OK;
	default:
		return PAPI_ENOSUPP;
	}
}

/* PAPI_overflow without PAPI_OVERFLOW_FORCE_SW (and PAPI_profil, which overflows through it): the event's counter
 * interrupts every `threshold` events. PAPI calls this with the set stopped, again after each update_control_state
 * (which schedules the set anew), and with threshold 0 to stop; the signal's handler is PAPI's, installed for
 * dispatch_timer, as long as one of the set's events interrupts. */
static int _netburst_set_overflow(EventSetInfo_t *ESI, int EventIndex, int threshold)
{
	struct nb_event_set *set = (struct nb_event_set *)ESI->ctl_state;
	int position = ESI->EventInfoArray[EventIndex].pos[0];
	int signal = _netburst_vector.cmp_info.hardware_intr_sig;
	int status;

	if (position < 0)
		return PAPI_EINVAL;
	/* PAPI_profil's address-register flags need the address a PEBS record holds: only a precise event (libpfm4's
	 * :precise=N, on IQ_COUNTER4) samples one. */
	if (threshold > 0 && (ESI->profile.flags & (PAPI_PROFIL_DATA_EAR | PAPI_PROFIL_INST_EAR)) &&
	    !nb_event_set_counter_is_pebs(set, set->counter_of[position])) {
		SUBDBG("PAPI_PROFIL_DATA_EAR and PAPI_PROFIL_INST_EAR need a PEBS event (:precise=N)\n");
		return PAPI_ENOSUPP;
	}
	status = nb_event_set_set_overflow(set, (unsigned)position, threshold);
	if (status != NB_STATUS_OK)
		return papi_status(status);
	if (threshold > 0)
		return _papi_hwi_start_signal(signal, 1, _netburst_vector.cmp_info.CmpIdx);
	return set->overflow_counters != 0 ? PAPI_OK : _papi_hwi_stop_signal(signal);
}

/* The overflow interrupt's signal (hardware overflow). The signal arrives later than the interrupt: the emulator
 * sends it when the interrupt is taken, and Valgrind delivers it when its scheduler next polls, some instructions
 * on. So the interrupted program counter in the signal's context is not the sample; the handler takes each queued
 * interrupt's own facts instead: the instruction it returns to after the modelled skid, which is PAPI's address,
 * and the events whose counters overflowed, which is the overflow vector (bit i for the set's native event i, as
 * PAPI numbers them in pos[]). Taking an interrupt reloads its counters for the next period. */
static void dispatch_interrupts(_papi_hwi_context_t *context, ThreadInfo_t *thread, EventSetInfo_t *ESI)
{
	struct nb_event_set *set = (struct nb_event_set *)ESI->ctl_state;
	/* PAPI_profil with PAPI_PROFIL_DATA_EAR: the buckets count data addresses, as Itanium's data EAR gave them,
	 * here the sampled load's or store's address from each PEBS record (INST_EAR: the record's instruction,
	 * which PEBS samples anyway). */
	const int data_ear = (ESI->state & PAPI_PROFILING) && (ESI->profile.flags & PAPI_PROFIL_DATA_EAR);
	uint64_t address, events, samples;
	vptr_t pc;

	for (;;) {
		samples = set->pebs_samples;
		if (nb_event_set_take_overflow(set, &address, &events) != NB_STATUS_OK)
			break;
		if (events == 0)
			continue;
		if (data_ear) {
			/* Only a PEBS record has a data address (set_overflow refuses the flag for other events). */
			if (set->pebs_samples == samples || !set->pebs_last.has_data_address)
				continue;
			address = set->pebs_last.data_address;
		}
		/* 0: the thread stopped running before the interrupt's instruction retired; the nearest known point. */
		pc = address != 0 ? (vptr_t)(uintptr_t)address : GET_OVERFLOW_ADDRESS((*context));
		_papi_hwi_dispatch_overflow_signal(context, pc, NULL, (long long)events, 0, &thread,
						   _netburst_vector.cmp_info.CmpIdx);
	}
}

/* The tick of PAPI's software overflow and profiling, and the overflow interrupt's signal (hardware_intr_sig, with
 * hardware_intr = 1). For software overflow (hardware_intr = 0, or PAPI_OVERFLOW_FORCE_SW), PAPI_start installs the
 * component's dispatch_timer as the handler of PAPI's interval timer signal (SIGPROF unless PAPI_DEF_ITIMER says otherwise);
 * a component without one gets PAPI's empty default, and then no overflow handler and no profile buffer ever sees
 * a sample although every count is right. Each tick gives PAPI the interrupted program counter (under netburst-run
 * Valgrind's frame carries the guest's), and PAPI reads the counters through read(), compares them with each
 * threshold and calls the handler or fills the profile buckets. */
static void _netburst_dispatch_timer(int signal, hwd_siginfo_t *info, void *uc)
{
	_papi_hwi_context_t context;
	ThreadInfo_t *thread = _papi_hwi_lookup_thread(0);
	EventSetInfo_t *set;

	/* The signal is per process: it may interrupt a thread PAPI never saw, which has nothing to sample. */
	if (thread == NULL)
		return;
	/* Only a set the component is counting is sampled. PAPI marks the set running before it calls start() and
	 * turns its timer off only after stop(), and under netburst-run a tick can land in either gap: Valgrind holds
	 * a signal until its scheduler next polls, so a tick raised just before one PAPI_stop's setitimer can arrive
	 * inside the next PAPI_start. Sampled there, the previous run's counts met the new thresholds (one handler
	 * call where ctests/overflow_allcounters wanted four: the deadline had moved past the whole run). After
	 * stop() there is nothing left to sample, and the tick's read would replace the values PAPI_stop has taken
	 * and is about to return. */
	set = thread->running_eventset[_netburst_vector.cmp_info.CmpIdx];
	if (set == NULL || !((const struct nb_event_set *)set->ctl_state)->running)
		return;
	context.si = info;
	context.ucontext = (hwd_ucontext_t *)uc;
	if (_netburst_vector.cmp_info.hardware_intr && signal == _netburst_vector.cmp_info.hardware_intr_sig) {
		dispatch_interrupts(&context, thread, set);
		return;
	}
	/* PAPI checks that this thread's running event set overflows in software, samples it and dispatches. */
	_papi_hwi_dispatch_overflow_signal(&context, GET_OVERFLOW_ADDRESS(context), NULL, 0, 0, &thread,
					   _netburst_vector.cmp_info.CmpIdx);
}

/* papi_netburst.h: the PEBS sample of an event set's handler call. */
int papi_netburst_get_pebs_sample(int EventSet, struct papi_netburst_pebs_sample *out)
{
	EventSetInfo_t *set = _papi_hwi_lookup_EventSet(EventSet);

	if (set == NULL || out == NULL || set->CmpIdx != _netburst_vector.cmp_info.CmpIdx || set->ctl_state == NULL)
		return PAPI_ENOEVST;
	return papi_status(nb_event_set_pebs_sample((const struct nb_event_set *)set->ctl_state, out));
}

/* One PAPI event's half-width from its native events' (the component's positions), as PAPI derives the value: a
 * sum or a difference of counts has at most the sum of their half-widths (their errors may be correlated: they come
 * from the same sampled units); a compound event is its first count's. Other derivations (ratios, postfix
 * formulas) are not bounded by a sum: -1. */
static long long derived_half_width(const EventInfo_t *event, const long long *native)
{
	long long half = 0;
	int j;

	if (event->derived != NOT_DERIVED && event->derived != DERIVED_ADD && event->derived != DERIVED_SUB &&
	    event->derived != DERIVED_CMPD)
		return -1;
	for (j = 0; j < PAPI_EVENTS_IN_DERIVED_EVENT && event->pos[j] != PAPI_NULL; j++) {
		if (native[event->pos[j]] < 0)
			return -1;
		half += native[event->pos[j]];
		if (event->derived == NOT_DERIVED || event->derived == DERIVED_CMPD)
			break;
	}
	return half;
}

/* papi_netburst.h: the confidence intervals of an event set's counts under netburst-run --timing=sampled. */
int papi_netburst_get_intervals(int EventSet, long long *half_widths)
{
	EventSetInfo_t *set = _papi_hwi_lookup_EventSet(EventSet);
	long long native[NB_MAX_EVENTS];
	int i, status;

	if (set == NULL || half_widths == NULL || set->CmpIdx != _netburst_vector.cmp_info.CmpIdx ||
	    set->ctl_state == NULL)
		return PAPI_ENOEVST;
	status = nb_event_set_intervals((struct nb_event_set *)set->ctl_state, native);
	if (status != NB_STATUS_OK)
		return papi_status(status);
	for (i = 0; i < set->NumberOfEvents; i++)
		half_widths[i] = derived_half_width(&set->EventInfoArray[i], native);
	return PAPI_OK;
}

/* After a successful enumeration step, PAPI asks for the event's name through this string, so that it finds the
 * event code it made before instead of making a new one each time a tool enumerates. */
static int remember_name(unsigned code)
{
	char name[PAPI_MAX_STR_LEN];
	if (nb_native_code_to_name(code, name, sizeof name) == NB_STATUS_OK)
		_papi_hwi_set_papi_event_string(name);
	return PAPI_OK;
}

static int _netburst_ntv_enum_events(unsigned int *code, int modifier)
{
	int status;
	switch (modifier) {
	case PAPI_ENUM_FIRST: status = nb_native_first(code); break;
	case PAPI_ENUM_EVENTS: status = nb_native_next_event(code); break;
	case PAPI_NTV_ENUM_UMASKS: status = nb_native_next_umask(code); break;
	default: return PAPI_EINVAL;
	}
	if (status != NB_STATUS_OK)
		return PAPI_ENOEVNT;
	return remember_name(*code);
}

static int _netburst_ntv_name_to_code(const char *name, unsigned int *code)
{
	char why[NB_REASON_LEN] = "";
	return explain(nb_native_name_to_code_why(name, code, why, sizeof why), name, why);
}

static int _netburst_ntv_code_to_name(unsigned int code, char *name, int len)
{
	return papi_status(nb_native_code_to_name(code, name, (size_t)len));
}

static int _netburst_ntv_code_to_descr(unsigned int code, char *descr, int len)
{
	return papi_status(nb_native_code_to_descr(code, descr, (size_t)len));
}

static int _netburst_ntv_code_to_info(unsigned int code, PAPI_event_info_t *info)
{
	int status = nb_native_code_to_name(code, info->symbol, sizeof info->symbol);
	if (status == NB_STATUS_OK)
		status = nb_native_code_to_descr(code, info->long_descr, sizeof info->long_descr);
	if (status == NB_STATUS_OK)
		status = nb_native_code_to_short_descr(code, info->short_descr, sizeof info->short_descr);
	return papi_status(status);
}

papi_vector_t _netburst_vector = {
	.cmp_info = {
		.name = "netburst",
		.short_name = "netburst",
		.description = "Intel NetBurst (Pentium 4) performance counters",
		.version = "0.1.0",
		.support_version = "NetBurst emulator client protocol 4",
		.num_cntrs = NB_NUM_COUNTERS,
		.num_mpx_cntrs = PAPI_MAX_SW_MPX_EVENTS,
		.default_domain = PAPI_DOM_USER,
		.available_domains = PAPI_DOM_USER | PAPI_DOM_KERNEL,
		.default_granularity = PAPI_GRN_THR,
		.available_granularities = PAPI_GRN_THR,
		.hardware_intr_sig = PAPI_INT_SIGNAL, /* init_component sets both where the backend interrupts */
		.hardware_intr = 0,
		.cntr_umasks = 1,
		.pmu_names = {"netburst"},
	},
	.size = {
		.context = sizeof(struct nb_thread),
		.control_state = sizeof(struct nb_event_set),
		.reg_value = 1,
		.reg_alloc = 1,
	},
	.init_component = _netburst_init_component,
	.shutdown_component = _netburst_shutdown_component,
	.init_thread = _netburst_init_thread,
	.shutdown_thread = _netburst_shutdown_thread,
	.init_control_state = _netburst_init_control_state,
	.update_control_state = _netburst_update_control_state,
	.cleanup_eventset = _netburst_cleanup_eventset,
	.start = _netburst_start,
	.stop = _netburst_stop,
	.read = _netburst_read,
	.reset = _netburst_reset,
	.write = _netburst_write,
	.ctl = _netburst_ctl,
	.dispatch_timer = _netburst_dispatch_timer,
	.set_overflow = _netburst_set_overflow,
	.set_domain = _netburst_set_domain,
	.ntv_enum_events = _netburst_ntv_enum_events,
	.ntv_name_to_code = _netburst_ntv_name_to_code,
	.ntv_code_to_name = _netburst_ntv_code_to_name,
	.ntv_code_to_descr = _netburst_ntv_code_to_descr,
	.ntv_code_to_info = _netburst_ntv_code_to_info,
};
