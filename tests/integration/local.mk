# Integration tests: real programs on the emulator through netburst-run (included from
# emulator/valgrind/local.mk). The guest programs are plain C and assembly, built by explicit rules with fixed
# flags, because Valgrind cannot run programs built with the sanitizers a build may configure (CFLAGS, LDFLAGS).
NB_GUEST_DIR = tests/integration/guests
NB_GUEST_CFLAGS = -O2 -g -pthread -I$(top_srcdir) $(WARN_CFLAGS)
NB_GUEST_SRC = $(srcdir)/tests/integration
NB_GUEST_COMMON = $(NB_GUEST_SRC)/guest_program.c $(NB_GUEST_SRC)/asm/loops.S
NB_GUESTS = $(NB_GUEST_DIR)/guest_measure $(NB_GUEST_DIR)/guest_threads $(NB_GUEST_DIR)/guest_loops \
	$(NB_GUEST_DIR)/guest_crash $(NB_GUEST_DIR)/guest_signals $(NB_GUEST_DIR)/guest_sweep \
	$(NB_GUEST_DIR)/guest_loops_static \
	$(NB_GUEST_DIR)/guest_cpuid $(NB_GUEST_DIR)/guest_record $(NB_GUEST_DIR)/guest_callchain \
	$(NB_GUEST_DIR)/guest_adds
# The i386 guests (gcc -m32), when configure found that $(CC) -m32 links: the tests skip what is not built.
if HAVE_CC_M32
NB_GUESTS += $(NB_GUEST_DIR)/guest_adds32
endif
check_SCRIPTS = $(NB_GUESTS)
CLEANFILES += $(NB_GUESTS)
EXTRA_DIST += tests/integration/asm/loops.S tests/integration/guest_program.h tests/integration/guest_program.c \
	tests/integration/guest_measure.c tests/integration/guest_threads.c tests/integration/guest_loops.c \
	tests/integration/guest_crash.c tests/integration/guest_signals.c tests/integration/guest_sweep.c \
	tests/integration/guest_cpuid.c tests/integration/guest_record.c tests/integration/guest_callchain.c \
	tests/integration/guest_adds.c

$(NB_GUEST_DIR)/guest_measure: $(NB_GUEST_SRC)/guest_measure.c $(NB_GUEST_COMMON) $(NB_GUEST_SRC)/guest_program.h
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_GUEST_CFLAGS) -o $@ $(NB_GUEST_SRC)/guest_measure.c $(NB_GUEST_COMMON)
$(NB_GUEST_DIR)/guest_threads: $(NB_GUEST_SRC)/guest_threads.c $(NB_GUEST_COMMON) $(NB_GUEST_SRC)/guest_program.h
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_GUEST_CFLAGS) -o $@ $(NB_GUEST_SRC)/guest_threads.c $(NB_GUEST_COMMON)
$(NB_GUEST_DIR)/guest_loops: $(NB_GUEST_SRC)/guest_loops.c $(NB_GUEST_SRC)/asm/loops.S
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_GUEST_CFLAGS) -o $@ $(NB_GUEST_SRC)/guest_loops.c $(NB_GUEST_SRC)/asm/loops.S
# Static: no dynamic loader, whose start-up indexes a table with the random bytes of AT_RANDOM and so misses the L1
# once more in some runs than in others. Tests that compare whole-program cache counts of two runs use this one.
$(NB_GUEST_DIR)/guest_loops_static: $(NB_GUEST_SRC)/guest_loops.c $(NB_GUEST_SRC)/asm/loops.S
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_GUEST_CFLAGS) -static -o $@ $(NB_GUEST_SRC)/guest_loops.c $(NB_GUEST_SRC)/asm/loops.S
$(NB_GUEST_DIR)/guest_crash: $(NB_GUEST_SRC)/guest_crash.c $(NB_GUEST_SRC)/asm/loops.S
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_GUEST_CFLAGS) -o $@ $(NB_GUEST_SRC)/guest_crash.c $(NB_GUEST_SRC)/asm/loops.S
$(NB_GUEST_DIR)/guest_signals: $(NB_GUEST_SRC)/guest_signals.c $(NB_GUEST_SRC)/asm/loops.S
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_GUEST_CFLAGS) -o $@ $(NB_GUEST_SRC)/guest_signals.c $(NB_GUEST_SRC)/asm/loops.S
# -O1: one plain scalar load per access, in both tools' runs of the same binary.
$(NB_GUEST_DIR)/guest_sweep: $(NB_GUEST_SRC)/guest_sweep.c
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) -O1 -g -I$(top_srcdir) $(WARN_CFLAGS) -o $@ $(NB_GUEST_SRC)/guest_sweep.c
# -O1: the load that misses and the arithmetic after it stay on their own source lines.
$(NB_GUEST_DIR)/guest_record: $(NB_GUEST_SRC)/guest_record.c
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) -O1 -g $(WARN_CFLAGS) -o $@ $(NB_GUEST_SRC)/guest_record.c
$(NB_GUEST_DIR)/guest_callchain: $(NB_GUEST_SRC)/guest_callchain.c
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) -O1 -g $(WARN_CFLAGS) -o $@ $(NB_GUEST_SRC)/guest_callchain.c
$(NB_GUEST_DIR)/guest_cpuid: $(NB_GUEST_SRC)/guest_cpuid.c
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_GUEST_CFLAGS) -o $@ $(NB_GUEST_SRC)/guest_cpuid.c
$(NB_GUEST_DIR)/guest_adds: $(NB_GUEST_SRC)/guest_adds.c
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) -O2 -g $(WARN_CFLAGS) -o $@ $(NB_GUEST_SRC)/guest_adds.c
$(NB_GUEST_DIR)/guest_adds32: $(NB_GUEST_SRC)/guest_adds.c
	@$(MKDIR_P) $(NB_GUEST_DIR)
	$(AM_V_CC)$(CC) -m32 -O2 -g $(WARN_CFLAGS) -o $@ $(NB_GUEST_SRC)/guest_adds.c

check_PROGRAMS += tests/integration/netburst_run_test
tests_integration_netburst_run_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_integration_netburst_run_test_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) $(JSON_CFLAGS)
tests_integration_netburst_run_test_LDADD = libnetburst_trace.a $(NB_RUN_LIBS) $(GTEST_LIBS)
tests_integration_netburst_run_test_SOURCES = tests/integration/netburst_run_test.cpp
TESTS += tests/integration/netburst_run_test
AM_TESTS_ENVIRONMENT += NETBURST_RUN=$(abs_builddir)/netburst-run$(EXEEXT); export NETBURST_RUN; \
	NB_GUESTS=$(abs_builddir)/$(NB_GUEST_DIR); export NB_GUESTS;

# netburst-run record read by Debian's perf and callgrind_annotate (doc/sampling.md).
check_PROGRAMS += tests/integration/record_test
tests_integration_record_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_integration_record_test_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) $(JSON_CFLAGS)
tests_integration_record_test_LDADD = $(GTEST_LIBS)
tests_integration_record_test_SOURCES = tests/integration/record_test.cpp
TESTS += tests/integration/record_test
AM_TESTS_ENVIRONMENT += NB_GUEST_SOURCES=$(abs_top_srcdir)/tests/integration; export NB_GUEST_SOURCES; \
	NB_EXAMPLES=$(abs_builddir)/examples; export NB_EXAMPLES;
