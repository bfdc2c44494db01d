# Unit tests of emulator/x86 (included from emulator/x86/local.mk): the opcode table against encodings GNU as
# produced and against the answers of the maps it replaced, the guest's CPUID, the instruction-set checks and the
# guest's /proc/cpuinfo and sysfs.
check_PROGRAMS += tests/x86/x86_tests
tests_x86_x86_tests_CXXFLAGS = $(AM_CXXFLAGS) -I$(top_srcdir) $(GTEST_CFLAGS)
tests_x86_x86_tests_LDADD = libnetburst_vghost.a libnetburst_emu.a $(CORE_LIBS) $(GTEST_LIBS)
tests_x86_x86_tests_SOURCES = tests/x86/x86_class_test.cpp tests/x86/x86_operands_test.cpp \
	tests/x86/opcode_table_test.cpp tests/x86/guest_cpuid_test.cpp tests/x86/guest_isa_test.cpp \
	tests/x86/guest_cpu_view_test.cpp
TESTS += tests/x86/x86_tests
EXTRA_DIST += tests/x86/opcode_vectors.txt
