# Trace files (included from emulator/local.mk). The binary codec is freestanding (the Valgrind tool records
# traces with it); the text form and file I/O are host code.
libnetburst_emu_a_SOURCES += emulator/trace/binary_codec.h emulator/trace/binary_codec.cpp

noinst_LIBRARIES += libnetburst_trace.a
libnetburst_trace_a_CXXFLAGS = $(AM_CXXFLAGS) -I$(top_srcdir)
libnetburst_trace_a_SOURCES = \
	emulator/trace/expression.h emulator/trace/expression.cpp \
	emulator/trace/text_trace.h emulator/trace/text_trace.cpp \
	emulator/trace/trace_file.h emulator/trace/trace_file.cpp

include $(srcdir)/tests/trace/local.mk
