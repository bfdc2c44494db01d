# Tests of emulator/valgrind/ (included from emulator/valgrind/local.mk): the synthetic kernel paths' documented
# composition.
check_PROGRAMS += tests/valgrind/valgrind_tests
tests_valgrind_valgrind_tests_CXXFLAGS = $(AM_CXXFLAGS) -I$(top_srcdir) $(GTEST_CFLAGS)
tests_valgrind_valgrind_tests_LDADD = libnetburst_vghost.a libnetburst_emu.a $(CORE_LIBS) $(GTEST_LIBS)
tests_valgrind_valgrind_tests_SOURCES = tests/valgrind/kernel_model_test.cpp
TESTS += tests/valgrind/valgrind_tests
