# The kernel MSR backend for a real Pentium 4 (included from Makefile.am after papi.mk; doc/real-pentium4.md):
# its sources join the component library, the msr-safe allow-lists are generated from the hardware table and
# installed, and its tests run on fake MSR device files and synthetic hwloc topologies.

libnetburst_component_a_SOURCES += \
	$(NB)/backend/backend.cpp \
	$(NB)/backend/errata.h $(NB)/backend/errata.cpp \
	$(NB)/backend/msr_allowlist.h $(NB)/backend/msr_allowlist.cpp \
	$(NB)/backend/msr_io.h $(NB)/backend/msr_io.cpp \
	$(NB)/backend/msr_restore.h $(NB)/backend/msr_restore.cpp \
	$(NB)/backend/placement.h $(NB)/backend/placement.cpp \
	$(NB)/backend/rdpmc.h $(NB)/backend/rdpmc.cpp \
	$(NB)/backend/topology.h $(NB)/backend/topology.cpp \
	$(NB)/backend/msr_environment.h $(NB)/backend/msr_environment.cpp \
	$(NB)/backend/msr_backend.h $(NB)/backend/msr_backend.cpp \
	$(NB)/backend/msr_detect.h $(NB)/backend/msr_detect.cpp \
	$(NB)/component/claim.h $(NB)/component/claim.cpp
# NETBURST_DATADIR: where the allow-lists are installed, for the advice in papi_component_avail.
libnetburst_component_a_CXXFLAGS += $(HWLOC_CFLAGS) -DNETBURST_DATADIR='"$(pkgdatadir)"'

# --- The msr-safe allow-lists: data/msr-safe/al_0F_<model>, generated, installed under share/papi-netburst ------
bin_PROGRAMS += netburst-msr-allowlist
netburst_msr_allowlist_LDADD = libnetburst_component.a $(CORE_LIBS)
netburst_msr_allowlist_SOURCES = src/tools/netburst_msr_allowlist/main.cpp
NB_MSR_MODELS = 0 1 2 3 4 6
msrsafedir = $(pkgdatadir)/msr-safe
dist_msrsafe_DATA = \
	data/msr-safe/al_0F_00 data/msr-safe/al_0F_01 data/msr-safe/al_0F_02 \
	data/msr-safe/al_0F_03 data/msr-safe/al_0F_04 data/msr-safe/al_0F_06
msr-allowlists: netburst-msr-allowlist$(EXEEXT)
	$(MKDIR_P) $(srcdir)/data/msr-safe
	for m in $(NB_MSR_MODELS); do \
		./netburst-msr-allowlist$(EXEEXT) --model $$m > $(srcdir)/data/msr-safe/`./netburst-msr-allowlist$(EXEEXT) --name $$m` || exit 1; \
	done
.PHONY: msr-allowlists

# --- Tests: fake /dev/cpu directories, recorded writes, synthetic topologies ------------------------------------
include $(srcdir)/tests/backend/local.mk

# --- PAPI's tools on a fake Pentium 4 (only when PAPI is built) -----------------------------------------------
if WITH_PAPI
check_PROGRAMS += tests/integration/papi/msr_papi_test
tests_integration_papi_msr_papi_test_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) $(HWLOC_CFLAGS) -I$(top_srcdir) \
	-I$(top_srcdir)/tests/backend
tests_integration_papi_msr_papi_test_LDADD = libnetburst_component.a $(CORE_LIBS) $(HWLOC_LIBS) $(GTEST_LIBS)
tests_integration_papi_msr_papi_test_SOURCES = tests/integration/papi/msr_papi_test.cpp \
	tests/backend/fake_machine.h tests/backend/fake_machine.cpp
TESTS += tests/integration/papi/msr_papi_test
endif
