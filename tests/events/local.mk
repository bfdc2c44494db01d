# Unit tests of the event parser (included from Makefile.am).
check_PROGRAMS += tests/events/events_tests
tests_events_events_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS)
tests_events_events_tests_LDADD = $(CORE_LIBS) $(GTEST_LIBS)
tests_events_events_tests_SOURCES = tests/events/parser_test.cpp
TESTS += tests/events/events_tests
