# Core-model unit tests (GoogleTest), included from emulator/core/local.mk.
check_PROGRAMS += tests/emulator/core_tests
tests_emulator_core_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) -I$(top_srcdir)
tests_emulator_core_tests_LDADD = libnetburst_emu.a libnetburst_table.a $(GTEST_LIBS)
tests_emulator_core_tests_SOURCES = \
	tests/emulator/core_test_util.h \
	tests/emulator/core_cache_test.cpp \
	tests/emulator/core_predictor_test.cpp \
	tests/emulator/core_pipeline_test.cpp \
	tests/emulator/core_smt_test.cpp \
	tests/emulator/tier_corpus.h tests/emulator/core_tier_test.cpp \
	tests/emulator/core_coverage_test.cpp \
	emulator/core/doc/coverage_markdown.h emulator/core/doc/coverage_markdown.cpp \
	tests/emulator/core_sprunt_test.cpp \
	tests/emulator/core_form_timing_test.cpp \
	tests/emulator/core_x87_stack_test.cpp \
	tests/emulator/core_tick_ring_test.cpp \
	tests/emulator/core_state_hash_test.cpp \
	tests/emulator/memo_probe_test.cpp
TESTS += tests/emulator/core_tests

# doc/emulator-coverage.md is generated from the coverage table: `make doc-coverage`.
EXTRA_PROGRAMS += tests/emulator/coverage_doc
tests_emulator_coverage_doc_CXXFLAGS = $(AM_CXXFLAGS) -I$(top_srcdir)
tests_emulator_coverage_doc_LDADD = libnetburst_emu.a libnetburst_table.a
tests_emulator_coverage_doc_SOURCES = emulator/core/doc/coverage_doc_main.cpp \
	emulator/core/doc/coverage_markdown.h emulator/core/doc/coverage_markdown.cpp
CLEANFILES += tests/emulator/coverage_doc
doc-coverage: tests/emulator/coverage_doc$(EXEEXT)
	./tests/emulator/coverage_doc$(EXEEXT) > $(srcdir)/doc/emulator-coverage.md
.PHONY: doc-coverage
