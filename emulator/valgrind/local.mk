# The netburst Valgrind tool (included from emulator/local.mk). The tool is compiled and linked by its own GNU make
# file (tool.mk) with the flags a Valgrind tool needs; here it is wired into all, install, clean and the build
# tree's VALGRIND_LIB directory (emulator/valgrind/lib: the tool plus links to Debian's vgpreload_core and
# default.supp).

NB_VGTOOL = emulator/valgrind/lib/netburst-$(VALGRIND_PLATFORM)
NB_VGTOOL_C = emulator/valgrind/nb_main.c emulator/valgrind/nb_options.c emulator/valgrind/nb_host.c \
	emulator/valgrind/nb_buffer.c emulator/valgrind/nb_instrument.c emulator/valgrind/nb_events.c \
	emulator/valgrind/nb_memmove.c emulator/valgrind/nb_cpuid.c \
	emulator/valgrind/nb_fixed_random.c emulator/valgrind/nb_clock.c emulator/valgrind/nb_itimer.c \
	emulator/valgrind/nb_procfs.c emulator/valgrind/nb_files.c \
	emulator/valgrind/nb_file_io.c emulator/valgrind/nb_samples.c
NB_VGTOOL_CXX_OWN = \
	emulator/valgrind/runtime.cpp emulator/valgrind/runtime_shim.cpp emulator/valgrind/kernel_model.cpp \
	$(NB_PROTOCOL_SOURCES) $(NB_SAMPLING_SOURCES)
# The emulator, table and x86 sources (tool.mk compiles their .cpp files a second time with the tool's flags).
NB_VGTOOL_SHARED = $(libnetburst_emu_a_SOURCES) $(libnetburst_table_a_SOURCES) $(NB_X86_SOURCES)

EXTRA_DIST += emulator/valgrind/tool.mk emulator/valgrind/nb_tool.h emulator/valgrind/nb_runtime.h \
	emulator/valgrind/nb_guest.h \
	$(NB_VGTOOL_C) $(NB_VGTOOL_CXX_OWN) \
	emulator/valgrind/runtime.h emulator/valgrind/kernel_model.h

# NB_VGTOOL_BUILD platform, load address, object directory: one build of the tool (tool.mk), and the links of its
# VALGRIND_LIB directory.
NB_VGTOOL_BUILD = $(MAKE) --no-print-directory -f $(srcdir)/emulator/valgrind/tool.mk V=$(V) \
	top_srcdir='$(top_srcdir)' CC='$(CC)' CXX='$(CXX)' \
	VALGRIND_CFLAGS='$(VALGRIND_CFLAGS)' VALGRIND_LIBDIR='$(VALGRIND_LIBDIR)' \
	WARN_CFLAGS='$(WARN_CFLAGS)' WARN_CXXFLAGS='$(WARN_CXXFLAGS)' \
	C_SOURCES='$(NB_VGTOOL_C)' CXX_OWN='$(NB_VGTOOL_CXX_OWN)' SHARED_SOURCES='$(NB_VGTOOL_SHARED)'

nb-vgtool:
	+@$(NB_VGTOOL_BUILD) VALGRIND_PLATFORM='$(VALGRIND_PLATFORM)' VALT_LOAD_ADDRESS='$(VALT_LOAD_ADDRESS)' \
		OBJDIR=emulator/valgrind/tool-objs TOOL='$(NB_VGTOOL)'
	@ln -sf '$(VALGRIND_LIBEXEC)/vgpreload_core-$(VALGRIND_PLATFORM).so' emulator/valgrind/lib/
	@ln -sf '$(VALGRIND_LIBEXEC)/default.supp' emulator/valgrind/lib/

# The x86-linux build, with which Valgrind runs i386 programs (issue 29; configure says whether it can be built).
# netburst-run refuses i386 programs while this build's counts are not known to be exact.
nb-vgtool-x86:
	+@$(NB_VGTOOL_BUILD) VALGRIND_PLATFORM=x86-linux VALT_LOAD_ADDRESS='$(VALT_LOAD_ADDRESS_X86)' \
		OBJDIR=emulator/valgrind/tool-objs-x86 TOOL=emulator/valgrind/lib/netburst-x86-linux
	@ln -sf '$(VALGRIND_LIBEXEC)/vgpreload_core-x86-linux.so' emulator/valgrind/lib/
.PHONY: nb-vgtool nb-vgtool-x86

NB_VGTOOL_PLATFORMS = $(VALGRIND_PLATFORM)
NB_VGTOOL_TARGETS = nb-vgtool
if BUILD_X86_TOOL
NB_VGTOOL_PLATFORMS += x86-linux
NB_VGTOOL_TARGETS += nb-vgtool-x86
endif

all-local: $(NB_VGTOOL_TARGETS)

nb_vgtooldir = $(pkglibdir)/valgrind
install-exec-local: nb-vgtool-install
nb-vgtool-install: $(NB_VGTOOL_TARGETS)
	$(MKDIR_P) '$(DESTDIR)$(nb_vgtooldir)'
	for p in $(NB_VGTOOL_PLATFORMS); do \
	  $(INSTALL_PROGRAM) "emulator/valgrind/lib/netburst-$$p" '$(DESTDIR)$(nb_vgtooldir)/' && \
	  ln -sf "$(VALGRIND_LIBEXEC)/vgpreload_core-$$p.so" '$(DESTDIR)$(nb_vgtooldir)/' || exit 1; \
	done
	ln -sf '$(VALGRIND_LIBEXEC)/default.supp' '$(DESTDIR)$(nb_vgtooldir)/'
uninstall-local: nb-vgtool-uninstall
nb-vgtool-uninstall:
	for p in $(NB_VGTOOL_PLATFORMS); do \
	  rm -f "$(DESTDIR)$(nb_vgtooldir)/netburst-$$p" "$(DESTDIR)$(nb_vgtooldir)/vgpreload_core-$$p.so"; \
	done
	rm -f '$(DESTDIR)$(nb_vgtooldir)/default.supp'
clean-local: nb-vgtool-clean
nb-vgtool-clean:
	rm -rf emulator/valgrind/tool-objs emulator/valgrind/tool-objs-x86 emulator/valgrind/lib
.PHONY: nb-vgtool-install nb-vgtool-uninstall nb-vgtool-clean

# --- The tool's freestanding pieces, built for the host: netburst-run and the unit tests use them ------------
noinst_LIBRARIES += libnetburst_vghost.a
libnetburst_vghost_a_CXXFLAGS = $(AM_CXXFLAGS) -I$(top_srcdir)
libnetburst_vghost_a_SOURCES = $(NB_X86_SOURCES) $(NB_X86_HOST_SOURCES) \
	emulator/valgrind/kernel_model.h emulator/valgrind/kernel_model.cpp

include $(srcdir)/tests/valgrind/local.mk
include $(srcdir)/tests/integration/local.mk
