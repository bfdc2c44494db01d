# Core-model unit tests (GoogleTest), included from emulator/core/local.mk.
check_PROGRAMS += tests/core/core_tests
tests_core_core_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) -I$(top_srcdir)
tests_core_core_tests_LDADD = libnetburst_emu.a libnetburst_table.a $(GTEST_LIBS)
tests_core_core_tests_SOURCES = \
	tests/core/core_test_util.h \
	tests/core/core_cache_test.cpp \
	tests/core/core_predictor_test.cpp \
	tests/core/core_pipeline_test.cpp \
	tests/core/core_smt_test.cpp \
	tests/emulator/tier_corpus.h tests/core/core_tier_test.cpp \
	tests/core/core_coverage_test.cpp \
	emulator/core/doc/coverage_markdown.h emulator/core/doc/coverage_markdown.cpp \
	tests/core/core_sprunt_test.cpp \
	tests/core/core_form_timing_test.cpp \
	tests/core/core_x87_stack_test.cpp \
	tests/core/core_tick_ring_test.cpp \
	tests/core/core_cycle_slots_test.cpp \
	tests/core/core_state_hash_test.cpp
TESTS += tests/core/core_tests

# doc/emulator-coverage.md is generated from the coverage table: `make doc-coverage`.
EXTRA_PROGRAMS += tests/core/coverage_doc
tests_core_coverage_doc_CXXFLAGS = $(AM_CXXFLAGS) -I$(top_srcdir)
tests_core_coverage_doc_LDADD = libnetburst_emu.a libnetburst_table.a
tests_core_coverage_doc_SOURCES = emulator/core/doc/coverage_doc_main.cpp \
	emulator/core/doc/coverage_markdown.h emulator/core/doc/coverage_markdown.cpp
CLEANFILES += tests/core/coverage_doc
doc-coverage: tests/core/coverage_doc$(EXEEXT)
	./tests/core/coverage_doc$(EXEEXT) > $(srcdir)/doc/emulator-coverage.md
.PHONY: doc-coverage
