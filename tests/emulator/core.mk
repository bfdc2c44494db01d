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
	tests/emulator/core_fast_path_test.cpp \
	tests/emulator/core_coverage_test.cpp \
	tests/emulator/core_sprunt_test.cpp
TESTS += tests/emulator/core_tests
