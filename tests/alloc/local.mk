# Unit tests of the allocator (included from Makefile.am): hand-made cases, and random sets against an enumeration.
check_PROGRAMS += tests/alloc/alloc_tests
tests_alloc_alloc_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS)
tests_alloc_alloc_tests_LDADD = $(CORE_LIBS) $(GTEST_LIBS)
tests_alloc_alloc_tests_SOURCES = tests/alloc/schedule_checker.h tests/alloc/allocator_test.cpp \
	tests/alloc/allocator_bruteforce_test.cpp
TESTS += tests/alloc/alloc_tests
