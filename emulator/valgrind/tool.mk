# Builds the netburst Valgrind tool (a GNU make file, run by emulator/valgrind/local.mk). A Valgrind tool is a
# static executable with no C library and no C++ runtime, linked at Valgrind's load address against Debian's
# tool SDK, so it gets its own compile flags (no PIE, no stack protector, no exceptions, RTTI or thread-safe
# statics, and none of the user's CFLAGS/CXXFLAGS, which may carry sanitizers) and its own objects of the
# emulator and table sources. See doc/emulator-valgrind.md.
#
# Variables from the caller: top_srcdir, CC, CXX, VALGRIND_CFLAGS, VALGRIND_LIBDIR, VALT_LOAD_ADDRESS,
# VALGRIND_PLATFORM, WARN_CFLAGS, WARN_CXXFLAGS, C_SOURCES, CXX_OWN (the tool's C++ and the sampling and protocol
# sources), SHARED_SOURCES (the emulator and table libraries' sources; of both lists the .cpp files are compiled),
# OBJDIR, TOOL.

V ?= 0
quiet = $(if $(filter 1,$(V)),,@echo "  $(1)     " $@;)

# One build per Valgrind platform (nb_guest.h): amd64-linux for x86-64 programs, x86-linux (-m32) for i386 ones.
ifeq ($(VALGRIND_PLATFORM),x86-linux)
TOOL_DEFS = -DVGA_x86=1 -DVGO_linux=1 -DVGP_x86_linux=1 -DVGPV_x86_linux_vanilla=1
# SSE2 arithmetic for the model's doubles (the sampled estimates, the regression of sampled_counters.cpp), so that
# they round as the amd64 build rounds them, not through x87's 80-bit intermediates. (The NaN estimates of i386
# programs doing floating point came from the host's x87 stack, which translated code leaves nearly full: X87Scope
# in runtime_shim.cpp; X86Build.AnI386ProgramReadsTheEmulatedClock.) Every host that runs Valgrind's x86 build on
# amd64 has SSE2. Valgrind keeps its x86 stacks 4-byte aligned; -mstackrealign aligns the frames that spill SSE
# registers.
TOOL_ARCH = -m32 -msse2 -mfpmath=sse -mstackrealign
else
TOOL_DEFS = -DVGA_amd64=1 -DVGO_linux=1 -DVGP_amd64_linux=1 -DVGPV_amd64_linux_vanilla=1
TOOL_ARCH =
endif
# Valgrind's headers are system headers here: their warnings are not ours.
TOOL_CPPFLAGS = -I$(top_srcdir) -I$(top_srcdir)/src/components/netburst $(patsubst -I%,-isystem %,$(VALGRIND_CFLAGS)) \
	$(TOOL_DEFS)
# Link-time optimisation: the hot path runs through the tool's glue, the emulator, the core model and the PMU,
# which are separate files; inlining across them saved 7 % of the timing tier's time on examples/matmul.c
# (doc/speed.md). The counts do not change (scripts/counts-snapshot.sh).
TOOL_LTO = -flto=auto
TOOL_COMMON = $(TOOL_ARCH) -O2 -g $(TOOL_LTO) -fno-strict-aliasing -fno-stack-protector -fno-pie -fno-plt -MMD -MP
TOOL_CFLAGS = $(TOOL_COMMON) -std=gnu11 -fno-builtin $(WARN_CFLAGS)
TOOL_CXXFLAGS = $(TOOL_COMMON) -std=c++17 -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit \
	$(WARN_CXXFLAGS)
TOOL_LDFLAGS = $(TOOL_ARCH) -O2 $(TOOL_LTO) -static -nodefaultlibs -nostartfiles -no-pie -u _start -Wl,--build-id=none \
	-Wl,-Ttext-segment=$(VALT_LOAD_ADDRESS) -Wl,--wrap=memmove
TOOL_LIBS = -L$(VALGRIND_LIBDIR) -lcoregrind-$(VALGRIND_PLATFORM) -lvex-$(VALGRIND_PLATFORM) -lgcc

CXX_SOURCES = $(sort $(filter %.cpp,$(CXX_OWN) $(SHARED_SOURCES)))


C_OBJS = $(patsubst %.c,$(OBJDIR)/%.o,$(C_SOURCES))
CXX_OBJS = $(patsubst %.cpp,$(OBJDIR)/%.o,$(CXX_SOURCES))

all: $(TOOL)
	@:
.PHONY: all

# The emulator's objects first, the C glue last: the hot loops then start at the same addresses whatever the glue
# holds. Byte-identical hot code ran up to 4 % slower or faster on examples/matmul when a change in the glue moved it
# (code layout, not code).
$(TOOL): $(CXX_OBJS) $(C_OBJS)
	@mkdir -p $(dir $@)
	$(call quiet,CCLD)$(CC) -o $@.tmp $^ $(TOOL_LDFLAGS) $(TOOL_LIBS)
	@# Nothing of a C++ runtime may be left unresolved (weak references link silently as null).
	@if nm -u $@.tmp | grep -E '__cxa_|__gxx_|_Unwind_|_Zn[wa]|_Zd[la]|_ZTV|_ZTI|__dso_handle'; then \
	  echo "$@: C++ runtime symbols are unresolved (above)" >&2; rm -f $@.tmp; exit 1; fi
	@mv $@.tmp $@

# The library functions the compiler calls (nb_memmove.c) stay outside link-time optimisation: a call the
# optimiser introduces late in the link is not resolved against a definition that is itself in IR form.
$(OBJDIR)/emulator/valgrind/nb_memmove.o: TOOL_LTO = -fno-lto

$(OBJDIR)/%.o: $(top_srcdir)/%.c
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CC) $(TOOL_CPPFLAGS) $(TOOL_CFLAGS) -c -o $@ $<

$(OBJDIR)/%.o: $(top_srcdir)/%.cpp
	@mkdir -p $(dir $@)
	$(call quiet,CXX)$(CXX) $(TOOL_CPPFLAGS) $(TOOL_CXXFLAGS) -c -o $@ $<

-include $(C_OBJS:.o=.d) $(CXX_OBJS:.o=.d)
