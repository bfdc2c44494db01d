# Trace-file tests (GoogleTest), included from emulator/trace/local.mk.
check_PROGRAMS += tests/trace/trace_tests
tests_trace_trace_tests_CXXFLAGS = $(AM_CXXFLAGS) -I$(top_srcdir) $(GTEST_CFLAGS)
tests_trace_trace_tests_LDADD = libnetburst_trace.a libnetburst_emu.a $(CORE_LIBS) $(GTEST_LIBS)
tests_trace_trace_tests_SOURCES = tests/trace/trace_test.cpp
TESTS += tests/trace/trace_tests
