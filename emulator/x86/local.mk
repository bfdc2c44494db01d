# The guest's instructions and identity (included from emulator/local.mk): the decoder and its opcode tables, the
# guest's CPUID, the instruction-set checks and the machine description. Freestanding: the Valgrind tool compiles
# the .cpp files with its own flags (NB_VGTOOL_SHARED), and the host library libnetburst_vghost.a holds them for
# netburst-run and the unit tests.
NB_X86_SOURCES = \
	emulator/x86/x86_decode.h emulator/x86/x86_decode.cpp \
	emulator/x86/x86_classify.h emulator/x86/x86_classify.cpp \
	emulator/x86/x86_form.h emulator/x86/x86_form.cpp \
	emulator/x86/x86_operands.h emulator/x86/x86_operand_builder.h \
	emulator/x86/x86_operands.cpp emulator/x86/x86_operands_simd.cpp \
	emulator/x86/guest_cpuid.h emulator/x86/guest_cpuid.cpp \
	emulator/x86/guest_isa.h emulator/x86/guest_isa.cpp \
	emulator/x86/machine_info.h emulator/x86/machine_info.cpp

include $(srcdir)/tests/x86/local.mk
