# Unit tests of the preset table (included from Makefile.am).
check_PROGRAMS += tests/presets/presets_tests
tests_presets_presets_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS)
tests_presets_presets_tests_LDADD = $(CORE_LIBS) $(GTEST_LIBS)
tests_presets_presets_tests_SOURCES = tests/presets/preset_test.cpp
TESTS += tests/presets/presets_tests
