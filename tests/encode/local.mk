# Unit tests of the encoder (included from Makefile.am).
check_PROGRAMS += tests/encode/encode_tests
tests_encode_encode_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS)
tests_encode_encode_tests_LDADD = $(CORE_LIBS) $(GTEST_LIBS)
tests_encode_encode_tests_SOURCES = tests/encode/program_test.cpp
TESTS += tests/encode/encode_tests
