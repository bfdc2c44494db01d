# The guest's instructions and identity (included from emulator/local.mk): the decoder and the opcode table, the
# guest's CPUID, the instruction-set checks and the machine description. Freestanding: the Valgrind tool compiles
# the .cpp files with its own flags (NB_VGTOOL_SHARED), and the host library libnetburst_vghost.a holds them for
# netburst-run and the unit tests.
NB_X86_SOURCES = \
	emulator/x86/x86_decode.h emulator/x86/x86_decode.cpp \
	emulator/x86/x86_instruction.h emulator/x86/x86_instruction.cpp \
	emulator/x86/opcode_table.h emulator/x86/opcode_table.cpp emulator/x86/operand_rules.h \
	emulator/x86/opcode_map_onebyte.cpp emulator/x86/opcode_map_0f.cpp emulator/x86/opcode_map_0f38_0f3a.cpp \
	emulator/x86/guest_cpuid.h emulator/x86/guest_cpuid.cpp \
	emulator/x86/guest_isa.h emulator/x86/guest_isa.cpp \
	emulator/x86/machine_info.h emulator/x86/machine_info.cpp

# Host code only (std::string): what the guest's /proc/cpuinfo and /sys/devices/system/cpu say, which netburst-run
# mounts (emulator/run/cpu_view.h). In libnetburst_vghost.a, not in the tool.
NB_X86_HOST_SOURCES = emulator/x86/guest_cpu_view.h emulator/x86/guest_cpu_view.cpp

include $(srcdir)/tests/x86/local.mk
