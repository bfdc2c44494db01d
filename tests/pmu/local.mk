# PMU model tests (GoogleTest): software's view only, wrmsr/rdmsr/rdpmc and handcrafted Outcomes.
# Included from emulator/pmu/local.mk.
EMU_LIBS = libnetburst_emu.a libnetburst_table.a

check_PROGRAMS += tests/pmu/pmu_tests
tests_pmu_pmu_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) -I$(top_srcdir)
tests_pmu_pmu_tests_LDADD = $(EMU_LIBS) $(GTEST_LIBS)
tests_pmu_pmu_tests_SOURCES = \
	tests/pmu/pmu_test_util.h tests/pmu/pmu_test_util.cpp \
	tests/pmu/pmu_registers_test.cpp \
	tests/pmu/pmu_counting_test.cpp \
	tests/pmu/pmu_cccr_test.cpp \
	tests/pmu/pmu_tagging_test.cpp \
	tests/pmu/pmu_pebs_test.cpp \
	tests/pmu/pmu_coverage_test.cpp \
	tests/pmu/pmu_reference_test.cpp \
	tests/pmu/pmu_tier_test.cpp \
	tests/pmu/sampled_counters_test.cpp \
	tests/pmu/unit_regression_test.cpp
TESTS += tests/pmu/pmu_tests

# The PMU feed's speed: `make bench` prints ns per Outcome (with the allocator figures).
if HAVE_BENCHMARK
EXTRA_PROGRAMS += tests/bench/pmu_bench
tests_bench_pmu_bench_CXXFLAGS = $(AM_CXXFLAGS) $(BENCHMARK_CFLAGS) -I$(top_srcdir)
tests_bench_pmu_bench_LDADD = $(EMU_LIBS) $(BENCHMARK_LIBS)
tests_bench_pmu_bench_SOURCES = tests/bench/pmu_bench.cpp
CLEANFILES += tests/bench/pmu_bench
bench: bench-pmu
bench-pmu: tests/bench/pmu_bench$(EXEEXT)
	./tests/bench/pmu_bench$(EXEEXT) --benchmark_counters_tabular=true
endif
.PHONY: bench-pmu
