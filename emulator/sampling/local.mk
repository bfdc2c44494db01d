# netburst-run record's sampling (included from emulator/local.mk): the sampler that turns the PMU's interrupts
# and PEBS records into samples, the shadow call stack, call edges and per-address tables. Freestanding: the tool
# compiles the same sources with its own flags (NB_VGTOOL_CXX_OWN, emulator/valgrind/local.mk).
NB_SAMPLING_SOURCES = \
	emulator/sampling/address_table.h emulator/sampling/pc_counts.h emulator/sampling/call_edges.h \
	emulator/sampling/shadow_stack.h \
	emulator/sampling/sampler.h emulator/sampling/sampler.cpp

noinst_LIBRARIES += libnetburst_sampling.a
libnetburst_sampling_a_CXXFLAGS = $(AM_CXXFLAGS) -I$(top_srcdir)
libnetburst_sampling_a_SOURCES = $(NB_SAMPLING_SOURCES)
include $(srcdir)/tests/sampling/local.mk
