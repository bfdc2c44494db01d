# Core model sources (owned by the core model work).
libnetburst_emu_a_SOURCES += \
	emulator/core/core.h emulator/core/core_config.h emulator/core/core_config.cpp \
	emulator/core/ticks.h emulator/core/tick_ring.h emulator/core/cycle_slots.h emulator/core/event_sink.h \
	emulator/model/functional_sink.h \
	emulator/core/lru_cache.h emulator/core/tlb.h emulator/core/set_geometry.h \
	emulator/core/trace_cache.h emulator/core/trace_cache.cpp emulator/core/group_plan.h \
	emulator/core/branch_predictor.h emulator/core/branch_predictor.cpp \
	emulator/core/uop_decode.h emulator/core/uop_decode.cpp emulator/model/insn_form.h \
	emulator/core/form_timing.h emulator/core/form_timing.cpp \
	emulator/core/bus.h emulator/core/bus.cpp \
	emulator/core/memory_system.h emulator/core/memory_system.cpp \
	emulator/core/store_buffer.h \
	emulator/core/core.cpp emulator/core/core_frontend.cpp emulator/core/core_backend.cpp \
	emulator/core/core_wrong_path.cpp emulator/core/core_cycles.cpp \
	emulator/core/core_state_hash.cpp emulator/core/state_hash.h \
	emulator/core/core_memory.h emulator/core/core_walker.h emulator/core/core_functional.h emulator/core/core_functional.cpp \
	emulator/core/coverage.cpp
include $(srcdir)/tests/core/local.mk
