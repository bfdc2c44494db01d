# Unit tests of the component core without PAPI, partly against an in-process emulator (included from papi.mk).
check_PROGRAMS += tests/component/component_tests
tests_component_component_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) -I$(top_srcdir)
tests_component_component_tests_LDADD = libnetburst_component.a libnetburst_emu.a $(CORE_LIBS) $(HWLOC_LIBS) \
	$(GTEST_LIBS)
tests_component_component_tests_SOURCES = \
	tests/component/in_process.h \
	tests/component/registry_test.cpp \
	tests/component/counter_extension_test.cpp \
	tests/component/detect_test.cpp \
	tests/component/event_set_test.cpp
TESTS += tests/component/component_tests
