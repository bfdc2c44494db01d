# The cycle emulator (included from Makefile.am). Freestanding code: no exceptions, no RTTI, so that the same
# objects link into the Valgrind tool.
EMU_CXXFLAGS = $(AM_CXXFLAGS) -fPIC -fno-exceptions -fno-rtti -I$(top_srcdir)

noinst_LIBRARIES += libnetburst_emu.a
libnetburst_emu_a_CXXFLAGS = $(EMU_CXXFLAGS)
libnetburst_emu_a_SOURCES = \
	emulator/model/instruction.h emulator/model/outcome.h emulator/model/functional_sink.h emulator/model/coverage.h \
	emulator/model/emulated_machine.h
include $(srcdir)/emulator/core/local.mk
include $(srcdir)/emulator/pmu/local.mk
include $(srcdir)/emulator/trace/local.mk
libnetburst_emu_a_SOURCES += emulator/emulator.h emulator/pmi_skid.h emulator/memo_probe.h emulator/sampled_clock.h \
	emulator/emulator.cpp

# netburst-emu: the emulator on trace files (host program)
bin_PROGRAMS += netburst-emu
netburst_emu_CXXFLAGS = $(AM_CXXFLAGS) -I$(top_srcdir) $(JSON_CFLAGS)
netburst_emu_LDADD = libnetburst_trace.a libnetburst_emu.a $(CORE_LIBS)
netburst_emu_SOURCES = \
	emulator/tools/netburst_emu.cpp \
	emulator/tools/replay.h emulator/tools/replay.cpp \
	emulator/tools/msr_script.h emulator/tools/msr_script.cpp \
	emulator/tools/sparse_memory.h emulator/tools/sparse_memory.cpp
# The emulator's tiers seen through its MSRs, with events programmed by the component's allocator, and the memo
# probe (GoogleTest).
check_PROGRAMS += tests/emulator/emulator_tests
tests_emulator_emulator_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) -I$(top_srcdir)
tests_emulator_emulator_tests_LDADD = libnetburst_emu.a $(CORE_LIBS) $(GTEST_LIBS)
tests_emulator_emulator_tests_SOURCES = tests/emulator/tier_corpus.h tests/emulator/emulator_tier_test.cpp \
	tests/emulator/emulator_clock_test.cpp \
	tests/emulator/memo_probe_test.cpp
TESTS += tests/emulator/emulator_tests

include $(srcdir)/emulator/x86/local.mk
include $(srcdir)/emulator/protocol/local.mk
include $(srcdir)/emulator/sampling/local.mk
include $(srcdir)/emulator/valgrind/local.mk
include $(srcdir)/emulator/run/local.mk
