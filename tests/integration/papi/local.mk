# Integration tests of the PAPI component (included from papi.mk when PAPI is built): programs linked with this
# build's libpapi, run on the emulator by netburst-run, and a GoogleTest driver that checks what they count.
# The programs are built by explicit rules with fixed flags (like tests/integration's guests): Valgrind cannot run
# programs built with the sanitizers a build may configure, and the Fortran program's instruction mix must not
# depend on the user's FCFLAGS.
NB_PAPI_GUEST_DIR = tests/integration/papi/guests
NB_PAPI_GUEST_SRC = $(srcdir)/tests/integration/papi
NB_PAPI_GUEST_CFLAGS = -O2 -g -pthread -I$(PAPI_SRC) -I$(srcdir)/src/components/netburst -Wall -Wextra -Werror
NB_PAPI_GUEST_LIBS = -L$(PAPI_SRC) -lpapi -Wl,-rpath,$(abs_builddir)/$(PAPI_SRC)
NB_PAPI_GUESTS = $(NB_PAPI_GUEST_DIR)/known_work $(NB_PAPI_GUEST_DIR)/semantics $(NB_PAPI_GUEST_DIR)/fortran_counts \
	$(NB_PAPI_GUEST_DIR)/pmi_overflow $(NB_PAPI_GUEST_DIR)/pebs_overflow $(NB_PAPI_GUEST_DIR)/sampled_intervals
CLEANFILES += $(NB_PAPI_GUESTS)
# libpapi.a is made by papi-build, which `all` runs before `check` builds the guests. Double-colon: papi.mk has
# one for the 32-bit libpapi.a, the same file in its second make (papi32-build).
$(PAPI_SRC)/libpapi.a:: ;
EXTRA_DIST += tests/integration/papi/known_work.S tests/integration/papi/known_work.c \
	tests/integration/papi/semantics.c tests/integration/papi/fortran_counts.F90 \
	tests/integration/papi/pmi_overflow.c tests/integration/papi/pebs_overflow.c tests/integration/papi/check.h \
	tests/integration/papi/sampled_intervals.c

$(NB_PAPI_GUEST_DIR)/known_work: $(NB_PAPI_GUEST_SRC)/known_work.c $(NB_PAPI_GUEST_SRC)/known_work.S $(PAPI_SRC)/libpapi.a
	@$(MKDIR_P) $(NB_PAPI_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_PAPI_GUEST_CFLAGS) -o $@ $(NB_PAPI_GUEST_SRC)/known_work.c \
		$(NB_PAPI_GUEST_SRC)/known_work.S $(NB_PAPI_GUEST_LIBS)
$(NB_PAPI_GUEST_DIR)/semantics: $(NB_PAPI_GUEST_SRC)/semantics.c $(NB_PAPI_GUEST_SRC)/check.h $(NB_PAPI_GUEST_SRC)/known_work.S $(PAPI_SRC)/libpapi.a
	@$(MKDIR_P) $(NB_PAPI_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_PAPI_GUEST_CFLAGS) -o $@ $(NB_PAPI_GUEST_SRC)/semantics.c \
		$(NB_PAPI_GUEST_SRC)/known_work.S $(NB_PAPI_GUEST_LIBS)
$(NB_PAPI_GUEST_DIR)/pmi_overflow: $(NB_PAPI_GUEST_SRC)/pmi_overflow.c $(NB_PAPI_GUEST_SRC)/check.h $(NB_PAPI_GUEST_SRC)/known_work.S $(PAPI_SRC)/libpapi.a
	@$(MKDIR_P) $(NB_PAPI_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_PAPI_GUEST_CFLAGS) -o $@ $(NB_PAPI_GUEST_SRC)/pmi_overflow.c \
		$(NB_PAPI_GUEST_SRC)/known_work.S $(NB_PAPI_GUEST_LIBS)
$(NB_PAPI_GUEST_DIR)/pebs_overflow: $(NB_PAPI_GUEST_SRC)/pebs_overflow.c $(NB_PAPI_GUEST_SRC)/check.h \
		$(srcdir)/examples/l1_miss_ring.h $(srcdir)/src/components/netburst/papi_netburst.h $(PAPI_SRC)/libpapi.a
	@$(MKDIR_P) $(NB_PAPI_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_PAPI_GUEST_CFLAGS) -I$(srcdir)/examples -o $@ $(NB_PAPI_GUEST_SRC)/pebs_overflow.c $(NB_PAPI_GUEST_LIBS)
$(NB_PAPI_GUEST_DIR)/sampled_intervals: $(NB_PAPI_GUEST_SRC)/sampled_intervals.c \
		$(srcdir)/src/components/netburst/papi_netburst.h $(PAPI_SRC)/libpapi.a
	@$(MKDIR_P) $(NB_PAPI_GUEST_DIR)
	$(AM_V_CC)$(CC) $(NB_PAPI_GUEST_CFLAGS) -o $@ $(NB_PAPI_GUEST_SRC)/sampled_intervals.c $(NB_PAPI_GUEST_LIBS)
# -O1 -fno-tree-vectorize: one scalar multiply and one add per element (see the program's header).
$(NB_PAPI_GUEST_DIR)/fortran_counts: $(NB_PAPI_GUEST_SRC)/fortran_counts.F90 $(PAPI_SRC)/libpapi.a
	@$(MKDIR_P) $(NB_PAPI_GUEST_DIR)
	$(AM_V_GEN)$(FC) -O1 -fno-tree-vectorize -I$(PAPI_SRC) -J $(NB_PAPI_GUEST_DIR) -o $@ \
		$(NB_PAPI_GUEST_SRC)/fortran_counts.F90 $(NB_PAPI_GUEST_LIBS)

check_PROGRAMS += tests/integration/papi/papi_integration_test
tests_integration_papi_papi_integration_test_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS)
tests_integration_papi_papi_integration_test_LDADD = $(GTEST_LIBS)
tests_integration_papi_papi_integration_test_SOURCES = tests/integration/papi/papi_integration_test.cpp
EXTRA_tests_integration_papi_papi_integration_test_DEPENDENCIES = $(NB_PAPI_GUESTS)
TESTS += tests/integration/papi/papi_integration_test
# $NETBURST_RUN comes from tests/integration/local.mk.
AM_TESTS_ENVIRONMENT += NB_PAPI_GUESTS=$(abs_builddir)/$(NB_PAPI_GUEST_DIR); export NB_PAPI_GUESTS; \
	NB_PAPI_UTILS=$(abs_builddir)/$(PAPI_SRC)/utils; export NB_PAPI_UTILS;

# The 32-bit libpapi in an i386 program (papi32_test.cpp): examples/papi_matmul32 against the x86-64 build of the
# same program. Without the 32-bit libpapi $NB_PAPI_MATMUL32 is empty and the test skips.
check_PROGRAMS += tests/integration/papi/papi32_test
tests_integration_papi_papi32_test_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) $(JSON_CFLAGS)
tests_integration_papi_papi32_test_LDADD = $(GTEST_LIBS)
tests_integration_papi_papi32_test_SOURCES = tests/integration/papi/papi32_test.cpp
EXTRA_tests_integration_papi_papi32_test_DEPENDENCIES = examples/papi_matmul $(NB_PAPI_MATMUL32)
TESTS += tests/integration/papi/papi32_test
if BUILD_PAPI32
NB_PAPI_MATMUL32 = examples/papi_matmul32
endif
AM_TESTS_ENVIRONMENT += NB_PAPI_MATMUL=$(abs_builddir)/examples/papi_matmul; export NB_PAPI_MATMUL; \
	NB_PAPI_MATMUL32=$(NB_PAPI_MATMUL32:%=$(abs_builddir)/%); export NB_PAPI_MATMUL32;
