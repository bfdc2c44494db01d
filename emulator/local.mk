# The cycle emulator (included from Makefile.am). Freestanding code: no exceptions, no RTTI, so that the same
# objects link into the Valgrind tool.
EMU_CXXFLAGS = $(AM_CXXFLAGS) -fPIC -fno-exceptions -fno-rtti -I$(top_srcdir)

noinst_LIBRARIES += libnetburst_emu.a
libnetburst_emu_a_CXXFLAGS = $(EMU_CXXFLAGS)
libnetburst_emu_a_SOURCES = \
	emulator/model/instruction.h emulator/model/outcome.h emulator/model/coverage.h
include $(srcdir)/emulator/core/local.mk
include $(srcdir)/emulator/pmu/local.mk
include $(srcdir)/emulator/trace/local.mk
