# Unit tests of the hardware table (included from Makefile.am): the register map, the ESCR and CCCR layouts and the
# counter's overflow arithmetic.
check_PROGRAMS += tests/table/table_tests
tests_table_table_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS)
tests_table_table_tests_LDADD = $(CORE_LIBS) $(GTEST_LIBS)
tests_table_table_tests_SOURCES = tests/table/table_test.cpp tests/table/registers_test.cpp \
	tests/table/overflow_test.cpp
TESTS += tests/table/table_tests
