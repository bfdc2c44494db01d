# PAPI 7.0.0 with the netburst component as component 0 (included from Makefile.am; doc/papi-component.md).
#
#   papi/papi-7.0.0      PAPI's source as configure fetched it (scripts/get-papi-source.sh); never modified
#   papi/work            a copy with patches/papi/*.patch applied and the component hooked in; PAPI builds here
#   papi/netburst_cxx.o  the component core and everything beneath it, prelinked into one object for libpapi
#   papi/papi_events.csv PAPI's preset table plus the component's sections (netburst-events --papi-csv)
#
# PAPI's own make builds libpapi.so, libpapi.a, the tools (papi_avail, ...) and the test suites (ctests, ftests,
# validation_tests); make install installs the library, headers, tools, man pages and papi.pc under --prefix.

# --- The component core as libpapi links it -----------------------------------------------------------------------
# Hidden visibility: nothing of the C++ beneath the glue becomes part of libpapi's ABI; the glue reaches the core
# through the C functions of component/glue_api.h, which hidden symbols still resolve within libpapi.
NB_COMPONENT_CXXFLAGS = $(AM_CXXFLAGS) -fPIC -fvisibility=hidden -fvisibility-inlines-hidden -I$(top_srcdir)
noinst_LIBRARIES += libnetburst_component.a
libnetburst_component_a_CXXFLAGS = $(NB_COMPONENT_CXXFLAGS)
libnetburst_component_a_SOURCES = \
	$(NB)/backend/backend.h \
	$(NB)/backend/emulator_backend.h $(NB)/backend/emulator_backend.cpp \
	$(NB)/backend/cpu_probe.h $(NB)/backend/cpu_probe.cpp \
	$(NB)/backend/msr_device.h $(NB)/backend/msr_device.cpp \
	$(NB)/backend/detect.h $(NB)/backend/detect.cpp \
	$(NB)/component/glue_api.h $(NB)/papi_netburst.h \
	$(NB)/component/counter_extension.h $(NB)/component/domain.h \
	$(NB)/component/native_registry.h $(NB)/component/native_registry.cpp \
	$(NB)/component/preset_choice.h $(NB)/component/preset_choice.cpp \
	$(NB)/component/component.h $(NB)/component/component.cpp \
	$(NB)/component/event_set.h $(NB)/component/event_set.cpp \
	$(NB)/component/api.cpp
EXTRA_DIST += $(NB)/Rules.netburst $(NB)/netburst_papi.c

# Unit tests of the component core without PAPI, partly against an in-process emulator.
check_PROGRAMS += tests/unit/component_tests
tests_unit_component_tests_CXXFLAGS = $(AM_CXXFLAGS) $(GTEST_CFLAGS) -I$(top_srcdir)
tests_unit_component_tests_LDADD = libnetburst_component.a libnetburst_emu.a $(CORE_LIBS) $(GTEST_LIBS)
tests_unit_component_tests_SOURCES = \
	tests/unit/component/in_process.h \
	tests/unit/component/registry_test.cpp \
	tests/unit/component/counter_extension_test.cpp \
	tests/unit/component/detect_test.cpp \
	tests/unit/component/event_set_test.cpp
TESTS += tests/unit/component_tests

.PHONY: papi-build papi-install papi-clean

if WITH_PAPI
PAPI_WORK = papi/work
PAPI_SRC = $(PAPI_WORK)/src
PAPI_PATCHES = \
	patches/papi/0001-preset-loading-before-the-first-thread.patch \
	patches/papi/0002-validation-test-workloads.patch \
	patches/papi/0003-ftests-serial_hl-num-flops.patch \
	patches/papi/0004-test-work-fixed-not-wall-clock.patch
EXTRA_DIST += $(PAPI_PATCHES)

# How PAPI is configured:
# - netburst is the only component asked for, so it is component 0: PAPI loads presets and runs its test suites
#   only for component 0.
# - No perf_event: on a Pentium 4 it would program the same counters. PAPI's configure enables perf_event when
#   /proc/sys/kernel/perf_event_paranoid exists (--without-perf-events does not turn that off); presetting
#   autoconf's cached result of that file check says what we mean, "no perf_event here", and selects PAPI's
#   linux-generic build, which has no CPU component of its own and no libpfm4.
# - LDFLAGS=-lstdc++ links the C++ runtime into libpapi.so and into the tools and tests linked with libpapi.a;
#   LIBS=-lstdc++ puts it into papi.pc's Libs.private for static users. hwloc likewise: the kernel MSR backend
#   maps logical CPUs to packages and threads with it.
PAPI_CONFIGURE_ARGS = \
	--prefix='$(prefix)' --exec-prefix='$(exec_prefix)' --bindir='$(bindir)' --libdir='$(libdir)' \
	--includedir='$(includedir)' --datadir='$(datadir)' --mandir='$(mandir)' --docdir='$(docdir)' \
	--with-components=netburst ac_cv_file__proc_sys_kernel_perf_event_paranoid=no \
	CC='$(CC)' F77='$(FC)' LDFLAGS='-lstdc++ $(HWLOC_LIBS)' LIBS='-lstdc++ $(HWLOC_LIBS)'

papi/netburst_cxx.o: libnetburst_component.a $(CORE_LIBS)
	$(AM_V_GEN)$(MKDIR_P) papi && $(CXX) -r -nostdlib -o $@ \
		-Wl,--whole-archive libnetburst_component.a $(CORE_LIBS) -Wl,--no-whole-archive

papi/papi_events.csv: papi/stamp-tree netburst-events$(EXEEXT)
	$(AM_V_GEN){ cat $(PAPI_TREE)/src/papi_events.csv && ./netburst-events$(EXEEXT) --papi-csv; } > $@.tmp && \
		mv $@.tmp $@

papi/stamp-tree: $(PAPI_PATCHES:%=$(srcdir)/%)
	@echo "  PAPI     copying $(PAPI_TREE) to $(PAPI_WORK) and applying patches/papi"
	@rm -rf $(PAPI_WORK) && cp -a $(PAPI_TREE) $(PAPI_WORK)
	@for p in $(PAPI_PATCHES); do \
		patch -d $(PAPI_WORK) -p1 --forward --quiet < $(srcdir)/$$p || { echo "$$p does not apply"; exit 1; }; \
	done
	@$(MKDIR_P) $(PAPI_SRC)/components/netburst
	@{ echo "# Generated by papi-netburst's build (papi.mk): the component lives in papi-netburst's tree."; \
	   echo "NETBURST_SRCDIR := $(abs_top_srcdir)/$(NB)"; \
	   echo "NETBURST_CXX_OBJ := $(abs_builddir)/papi/netburst_cxx.o"; \
	   echo "NETBURST_CSV := $(abs_builddir)/papi/papi_events.csv"; \
	   echo 'include $$(NETBURST_SRCDIR)/Rules.netburst'; } > $(PAPI_SRC)/components/netburst/Rules.netburst
	@touch $@

papi/stamp-configure: papi/stamp-tree
	@echo "  PAPI     configure (log: papi/configure.log)"
	@cd $(PAPI_SRC) && ./configure $(PAPI_CONFIGURE_ARGS) > $(abs_builddir)/papi/configure.log 2>&1 || \
		{ tail -n 40 $(abs_builddir)/papi/configure.log; echo "PAPI's configure failed: see papi/configure.log"; exit 1; }
	@first=`sed -n 's/^ *&_\(.*\)_vector,$$/\1/p' $(PAPI_SRC)/components_config.h | head -n1`; \
	 test "$$first" = netburst || { echo "PAPI's configure made $$first component 0, not netburst"; exit 1; }
	@touch $@

# Variables given on make's command line (make check TESTS=..., make CFLAGS=...) are not PAPI's: keep them out of
# PAPI's make, which has variables of those names.
papi-build papi-install: MAKEOVERRIDES =
papi-build: papi/stamp-configure papi/netburst_cxx.o papi/papi_events.csv
	@echo "  PAPI     make (log: papi/build.log)"
	@$(MAKE) -C $(PAPI_SRC) > papi/build.log 2>&1 || \
		{ tail -n 60 papi/build.log; echo "PAPI's build failed: see papi/build.log"; exit 1; }

papi-install: papi-build
	$(MAKE) -C $(PAPI_SRC) install DESTDIR='$(DESTDIR)'

papi-clean:
	rm -rf $(PAPI_WORK) papi/stamp-tree papi/stamp-configure papi/netburst_cxx.o papi/papi_events.csv \
		papi/configure.log papi/build.log papi-demo
distclean-local:
	rm -rf papi

# The PAPI example of `make demo`: scalar SSE2 (-fno-tree-vectorize), so that PAPI_FP_INS counts every
# floating-point operation; linked with this build's libpapi.
NB_DEMO_PAPI = examples/papi_matmul
examples/papi_matmul: $(srcdir)/examples/papi_matmul.c $(PAPI_SRC)/libpapi.a
	@$(MKDIR_P) examples
	$(AM_V_CC)$(CC) -O2 -fno-tree-vectorize -g -I$(PAPI_SRC) $(WARN_CFLAGS) -o $@ $(srcdir)/examples/papi_matmul.c \
		-L$(PAPI_SRC) -lpapi -Wl,-rpath,$(abs_builddir)/$(PAPI_SRC)
CLEANFILES += examples/papi_matmul

include $(srcdir)/tests/integration/papi/local.mk
else
NB_DEMO_PAPI =
papi-build papi-install papi-clean:
	@:
endif
EXTRA_DIST += examples/papi_matmul.c
all-local: papi-build
install-exec-local: papi-install
clean-local: papi-clean
