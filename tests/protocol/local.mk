# Tests of emulator/protocol/ (included from emulator/protocol/local.mk): the event-program and results files that
# netburst-run and the tool exchange.
check_PROGRAMS += tests/protocol/protocol_tests
tests_protocol_protocol_tests_CXXFLAGS = $(AM_CXXFLAGS) -I$(top_srcdir) $(GTEST_CFLAGS)
tests_protocol_protocol_tests_LDADD = libnetburst_protocol.a $(CORE_LIBS) $(GTEST_LIBS)
tests_protocol_protocol_tests_SOURCES = tests/protocol/program_file_test.cpp tests/protocol/results_file_test.cpp
TESTS += tests/protocol/protocol_tests
