# Tests of emulator/sampling/ (included from emulator/sampling/local.mk): the tool's sampler on a real Emulator with
# netburst-run record's event program and samples file, the shadow call stack of -g and the call edges of
# --callgrind.
check_PROGRAMS += tests/sampling/sampling_tests
tests_sampling_sampling_tests_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_sampling_sampling_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) $(JSON_CFLAGS)
tests_sampling_sampling_tests_LDADD = $(NB_RUN_LIBS) $(GTEST_LIBS)
tests_sampling_sampling_tests_SOURCES = tests/sampling/guest_instructions.h tests/sampling/sampler_test.cpp \
	tests/sampling/shadow_stack_test.cpp tests/sampling/call_edges_test.cpp
TESTS += tests/sampling/sampling_tests
