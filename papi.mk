# PAPI 7.0.0 with the netburst component as component 0 (included from Makefile.am; doc/papi-component.md).
#
#   papi/papi-7.0.0      PAPI's source as configure fetched it (scripts/get-papi-source.sh); never modified
#   papi/work            a copy with patches/papi/*.patch applied and the component hooked in; PAPI builds here
#   papi/netburst_cxx.o  the component core and everything beneath it, prelinked into one object for libpapi
#   papi/papi_events.csv PAPI's preset table plus the component's sections (netburst-events --papi-csv)
#   papi32/              the 32-bit libpapi (BUILD_PAPI32): its own work tree and netburst_cxx.o, the same csv
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
	$(NB)/backend/interface.h $(NB)/backend/backend.h \
	$(NB)/backend/emulator_backend.h $(NB)/backend/emulator_backend.cpp \
	$(NB)/backend/cpu_probe.h $(NB)/backend/cpu_probe.cpp \
	$(NB)/backend/msr_device.h $(NB)/backend/msr_device.cpp \
	$(NB)/backend/detect.h $(NB)/backend/detect.cpp \
	$(NB)/component/glue_api.h $(NB)/papi_netburst.h \
	$(NB)/component/counter_extension.h $(NB)/component/domain.h \
	$(NB)/component/native_registry.h $(NB)/component/native_registry.cpp \
	$(NB)/component/preset_choice.h $(NB)/component/preset_choice.cpp \
	$(NB)/component/component.h $(NB)/component/component.cpp \
	$(NB)/component/event_set.h $(NB)/component/event_set.cpp $(NB)/component/set_state.h \
	$(NB)/component/ds_area.h \
	$(NB)/component/overflow_reload.h $(NB)/component/overflow_reload.cpp \
	$(NB)/component/pebs_samples.h $(NB)/component/pebs_samples.cpp \
	$(NB)/component/api.cpp
EXTRA_DIST += $(NB)/Rules.netburst $(NB)/netburst_papi.c

# The same three libraries compiled -m32 for the 32-bit libpapi: the same sources and flags (with what msr.mk adds
# to them), objects of their own (per-target flags). hwloc's headers for -m32: configure's HWLOC32_CFLAGS.
if BUILD_PAPI32
NB_LIBS32 = lib32/libnetburst_component.a lib32/libnetburst_core.a lib32/libnetburst_table.a
noinst_LIBRARIES += $(NB_LIBS32)
lib32_libnetburst_component_a_CXXFLAGS = $(libnetburst_component_a_CXXFLAGS) -m32 $(HWLOC32_CFLAGS)
lib32_libnetburst_component_a_SOURCES = $(libnetburst_component_a_SOURCES)
lib32_libnetburst_core_a_CXXFLAGS = $(libnetburst_core_a_CXXFLAGS) -m32
lib32_libnetburst_core_a_SOURCES = $(libnetburst_core_a_SOURCES)
lib32_libnetburst_table_a_CXXFLAGS = $(libnetburst_table_a_CXXFLAGS) -m32
lib32_libnetburst_table_a_SOURCES = $(libnetburst_table_a_SOURCES)
endif

include $(srcdir)/tests/component/local.mk

.PHONY: papi-build papi-install papi-clean papi32-build papi32-install

if WITH_PAPI
# The rules below are written once, for the PAPI build in $(PAPI_DIR), and these variables hold what differs
# between the two builds. Their values here are the 64-bit libpapi's; papi32-build runs this Makefile again with
# the 32-bit values on its command line ($(PAPI32_MAKE)).
PAPI_DIR = papi
PAPI_CC = $(CC)
PAPI_FC = $(FC)
PAPI_CXX = $(CXX)
PAPI_LIBDIR = $(libdir)
PAPI_HWLOC_LIBS = $(HWLOC_LIBS)
PAPI_COMPONENT_LIBS = libnetburst_component.a $(CORE_LIBS)
PAPI_ARCH_ARGS =
PAPI_INSTALL_TARGETS = install
PAPI_WORK = $(PAPI_DIR)/work
PAPI_SRC = $(PAPI_WORK)/src
PAPI_PATCHES = \
	patches/papi/0001-preset-loading-before-the-first-thread.patch \
	patches/papi/0002-validation-test-workloads.patch \
	patches/papi/0003-ftests-serial_hl-num-flops.patch \
	patches/papi/0004-test-work-fixed-not-wall-clock.patch \
	patches/papi/0005-sysdetect-leaf-11-only-when-supported.patch \
	patches/papi/0006-sysdetect-l1-caches-by-type.patch
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
	--prefix='$(prefix)' --exec-prefix='$(exec_prefix)' --bindir='$(bindir)' --libdir='$(PAPI_LIBDIR)' \
	--includedir='$(includedir)' --datadir='$(datadir)' --mandir='$(mandir)' --docdir='$(docdir)' \
	--with-components=netburst ac_cv_file__proc_sys_kernel_perf_event_paranoid=no $(PAPI_ARCH_ARGS) \
	CC='$(PAPI_CC)' F77='$(PAPI_FC)' LDFLAGS='-lstdc++ $(PAPI_HWLOC_LIBS)' LIBS='-lstdc++ $(PAPI_HWLOC_LIBS)'

$(PAPI_DIR)/netburst_cxx.o: $(PAPI_COMPONENT_LIBS)
	$(AM_V_GEN)$(MKDIR_P) $(PAPI_DIR) && $(PAPI_CXX) -r -nostdlib -o $@ \
		-Wl,--whole-archive $(PAPI_COMPONENT_LIBS) -Wl,--no-whole-archive

papi/papi_events.csv: papi/stamp-tree netburst-events$(EXEEXT)
	$(AM_V_GEN){ cat $(PAPI_TREE)/src/papi_events.csv && ./netburst-events$(EXEEXT) --papi-csv; } > $@.tmp && \
		mv $@.tmp $@

$(PAPI_DIR)/stamp-tree: $(PAPI_PATCHES:%=$(srcdir)/%)
	@echo "  PAPI     copying $(PAPI_TREE) to $(PAPI_WORK) and applying patches/papi"
	@rm -rf $(PAPI_WORK) && $(MKDIR_P) $(PAPI_DIR) && cp -a $(PAPI_TREE) $(PAPI_WORK)
	@for p in $(PAPI_PATCHES); do \
		patch -d $(PAPI_WORK) -p1 --forward --quiet < $(srcdir)/$$p || { echo "$$p does not apply"; exit 1; }; \
	done
	@$(MKDIR_P) $(PAPI_SRC)/components/netburst
	@{ echo "# Generated by papi-netburst's build (papi.mk): the component lives in papi-netburst's tree."; \
	   echo "NETBURST_SRCDIR := $(abs_top_srcdir)/$(NB)"; \
	   echo "NETBURST_CXX_OBJ := $(abs_builddir)/$(PAPI_DIR)/netburst_cxx.o"; \
	   echo "NETBURST_CSV := $(abs_builddir)/papi/papi_events.csv"; \
	   echo 'include $$(NETBURST_SRCDIR)/Rules.netburst'; } > $(PAPI_SRC)/components/netburst/Rules.netburst
	@touch $@

$(PAPI_DIR)/stamp-configure: $(PAPI_DIR)/stamp-tree
	@echo "  PAPI     configure (log: $(PAPI_DIR)/configure.log)"
	@cd $(PAPI_SRC) && ./configure $(PAPI_CONFIGURE_ARGS) > $(abs_builddir)/$(PAPI_DIR)/configure.log 2>&1 || \
		{ tail -n 40 $(abs_builddir)/$(PAPI_DIR)/configure.log; \
		  echo "PAPI's configure failed: see $(PAPI_DIR)/configure.log"; exit 1; }
	@first=`sed -n 's/^ *&_\(.*\)_vector,$$/\1/p' $(PAPI_SRC)/components_config.h | head -n1`; \
	 test "$$first" = netburst || { echo "PAPI's configure made $$first component 0, not netburst"; exit 1; }
	@touch $@

# Variables given on make's command line (make check TESTS=..., make CFLAGS=...) are not PAPI's: keep them out of
# PAPI's make, which has variables of those names.
papi-build papi-install: MAKEOVERRIDES =
papi-build: $(PAPI_DIR)/stamp-configure $(PAPI_DIR)/netburst_cxx.o papi/papi_events.csv
	@echo "  PAPI     make (log: $(PAPI_DIR)/build.log)"
	@$(MAKE) -C $(PAPI_SRC) > $(PAPI_DIR)/build.log 2>&1 || \
		{ tail -n 60 $(PAPI_DIR)/build.log; echo "PAPI's build failed: see $(PAPI_DIR)/build.log"; exit 1; }

papi-install: papi-build
	$(MAKE) -C $(PAPI_SRC) $(PAPI_INSTALL_TARGETS) DESTDIR='$(DESTDIR)'

papi-clean:
	rm -rf $(PAPI_WORK) papi/stamp-tree papi/stamp-configure papi/netburst_cxx.o papi/papi_events.csv \
		papi/configure.log papi/build.log papi-demo papi32
distclean-local:
	rm -rf papi papi32

# --- The 32-bit libpapi ------------------------------------------------------------------------------------------
# The i386 build of the same PAPI source, patches and component: PAPI configured for a 32-bit x86 (-m32 compilers,
# --with-bitmode=32), the component core from the lib32/ libraries, the i386 libhwloc ($(HWLOC32_LIBS)). The
# preset table is the 64-bit build's papi/papi_events.csv: the CSV is text, the same for both.
# It installs only the libraries (libpapi, libsde) and papi.pc under $(papi32libdir), and the headers (the same
# files as the 64-bit build's) in $(includedir): the 64-bit build's tools serve both, and two sets would share a bindir.
papi32libdir = $(exec_prefix)/lib32
if BUILD_PAPI32
# PAPI's Makefiles take their compilers to be one word (CC=$(CC) to a make of their own, for libsde) and know them
# by name (`ifeq ($(notdir $(F77)),gfortran)` for the free-form flags), so the 32-bit ones are wrappers named after
# the compilers they run (configure's PAPI32_CC_NAME, PAPI32_FC_NAME), which add -m32. No MPI test programs
# (ac_cv_prog_MPICC empty): the mpicc PAPI's configure would find links the 64-bit libmpi only.
PAPI32_CC = papi32/bin/$(PAPI32_CC_NAME)
PAPI32_FC = papi32/bin/$(PAPI32_FC_NAME)
PAPI32_MAKE = $(MAKE) PAPI_DIR=papi32 PAPI_CC='$(abs_builddir)/$(PAPI32_CC)' \
	PAPI_FC='$(abs_builddir)/$(PAPI32_FC)' PAPI_CXX='$(CXX) -m32' \
	PAPI_LIBDIR='$(papi32libdir)' PAPI_HWLOC_LIBS='$(HWLOC32_LIBS)' PAPI_COMPONENT_LIBS='$(NB_LIBS32)' \
	PAPI_ARCH_ARGS='--with-arch=i686 --with-bitmode=32 ac_cv_prog_MPICC=' \
	PAPI_INSTALL_TARGETS='install-lib install-pkgconf'
$(PAPI32_CC): Makefile
	@$(MKDIR_P) papi32/bin
	$(AM_V_GEN)printf '#!/bin/sh\n# The C compiler of the 32-bit libpapi (papi.mk)\nexec %s -m32 "$$@"\n' \
		'$(CC)' > $@ && chmod +x $@
$(PAPI32_FC): Makefile
	@$(MKDIR_P) papi32/bin
	$(AM_V_GEN)printf '#!/bin/sh\n# The Fortran compiler of the 32-bit libpapi (papi.mk)\nexec %s -m32 "$$@"\n' \
		'$(FC)' > $@ && chmod +x $@
# After the 64-bit build, which makes the CSV both use; the lib32/ libraries are made here, not by the second make,
# so that the two makes never build the same file.
# (+: a make of its own, which takes part in this one's -j.)
papi32-build: papi-build $(NB_LIBS32) $(PAPI32_CC) $(PAPI32_FC)
	@+$(PAPI32_MAKE) papi-build
# After the 64-bit install: both copy the (same) headers into $(includedir).
papi32-install: papi32-build papi-install
	@+$(PAPI32_MAKE) papi-install
# libpapi.a is made by papi32-build, which `all` runs. A double-colon rule, as the 64-bit one's in
# tests/integration/papi/local.mk: in the second make the two name the same file.
papi32/work/src/libpapi.a:: ;
else
papi32-build papi32-install:
	@:
endif

# The PAPI example of `make demo`: scalar SSE2 (-fno-tree-vectorize), so that PAPI_FP_INS counts every
# floating-point operation; linked with this build's libpapi.
# examples/papi_matmul32 is the same program built -m32 with the 32-bit libpapi (BUILD_PAPI32).
NB_DEMO_PAPI = examples/papi_matmul
examples/papi_matmul: NB_EXAMPLE_PAPI = $(PAPI_SRC)
examples/papi_matmul: $(PAPI_SRC)/libpapi.a
examples/papi_matmul32: NB_EXAMPLE_M32 = -m32
examples/papi_matmul32: NB_EXAMPLE_PAPI = papi32/work/src
examples/papi_matmul32: papi32/work/src/libpapi.a
examples/papi_matmul examples/papi_matmul32: $(srcdir)/examples/papi_matmul.c
	@$(MKDIR_P) examples
	$(AM_V_CC)$(CC) $(NB_EXAMPLE_M32) -O2 -fno-tree-vectorize -g -I$(NB_EXAMPLE_PAPI) $(WARN_CFLAGS) -o $@ \
		$(srcdir)/examples/papi_matmul.c -L$(NB_EXAMPLE_PAPI) -lpapi -Wl,-rpath,$(abs_builddir)/$(NB_EXAMPLE_PAPI)
CLEANFILES += examples/papi_matmul examples/papi_matmul32

include $(srcdir)/tests/integration/papi/local.mk
else
NB_DEMO_PAPI =
papi-build papi-install papi-clean papi32-build papi32-install:
	@:
endif
EXTRA_DIST += examples/papi_matmul.c
all-local: papi-build papi32-build
install-exec-local: papi-install papi32-install
clean-local: papi-clean
