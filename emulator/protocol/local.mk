# What the Valgrind tool, netburst-run and the component share (included from emulator/local.mk): the files the
# tool and netburst-run exchange (event program, results, samples), the tool's option defaults, and the
# client-request ABI that the component and guest programs include (netburst_client.h). Freestanding: the tool
# compiles the same sources with its own flags (NB_VGTOOL_CXX_OWN, emulator/valgrind/local.mk).
NB_PROTOCOL_SOURCES = \
	emulator/protocol/netburst_client.h emulator/protocol/tool_options.h emulator/protocol/guest_elf.h \
	emulator/protocol/plain_text.h emulator/protocol/plain_text.cpp \
	emulator/protocol/program_file.h emulator/protocol/program_file.cpp \
	emulator/protocol/results_file.h emulator/protocol/results_file.cpp \
	emulator/protocol/sample_file.h emulator/protocol/sample_file.cpp

noinst_LIBRARIES += libnetburst_protocol.a
libnetburst_protocol_a_CXXFLAGS = $(AM_CXXFLAGS) -I$(top_srcdir)
libnetburst_protocol_a_SOURCES = $(NB_PROTOCOL_SOURCES)
include $(srcdir)/tests/protocol/local.mk
