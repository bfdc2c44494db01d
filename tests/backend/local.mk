# Unit tests of the kernel MSR backend (included from msr.mk): fake /dev/cpu directories, recorded writes,
# synthetic topologies.
check_PROGRAMS += tests/backend/backend_tests
tests_backend_backend_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) $(HWLOC_CFLAGS) -I$(top_srcdir)
tests_backend_backend_tests_LDADD = libnetburst_component.a $(CORE_LIBS) $(HWLOC_LIBS) $(GTEST_LIBS)
tests_backend_backend_tests_SOURCES = \
	tests/backend/fake_machine.h tests/backend/fake_machine.cpp \
	tests/backend/allowlist_test.cpp \
	tests/backend/topology_test.cpp \
	tests/backend/rdpmc_test.cpp \
	tests/backend/environment_test.cpp \
	tests/backend/msr_backend_test.cpp \
	tests/backend/restore_test.cpp \
	tests/backend/msr_detect_test.cpp \
	tests/backend/msr_component_test.cpp
TESTS += tests/backend/backend_tests
EXTRA_DIST += tests/data/topology
