# Unit tests of netburst-run's library (included from emulator/run/local.mk): -o patterns, merge (reading,
# statistics, output), preset suggestions, the progress line, the shared options, the report, and record's pieces:
# the sampling plan, the samples file, perf.data and callgrind; which tool build a program needs.
check_PROGRAMS += tests/run/run_tests
tests_run_run_tests_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_run_run_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) $(JSON_CFLAGS)
tests_run_run_tests_LDADD = $(NB_RUN_LIBS) $(GTEST_LIBS)
tests_run_run_tests_SOURCES = tests/run/output_pattern_test.cpp tests/run/merge_test.cpp tests/run/progress_test.cpp \
	tests/run/record_writers_test.cpp tests/run/sample_plan_test.cpp tests/run/run_options_test.cpp \
	tests/run/report_test.cpp tests/run/guest_platform_test.cpp
TESTS += tests/run/run_tests
