# PMU model sources (owned by the PMU model work).
libnetburst_emu_a_SOURCES += \
	emulator/pmu/pmu.h emulator/pmu/pmu_types.h \
	emulator/pmu/pmu.cpp emulator/pmu/pmu_feed.cpp emulator/pmu/pmu_counting.cpp emulator/pmu/pmu_functional.cpp \
	emulator/pmu/register_file.h emulator/pmu/register_file.cpp \
	emulator/pmu/qualifier.h emulator/pmu/routing.h \
	emulator/pmu/table_facts.h emulator/pmu/table_facts.cpp \
	emulator/pmu/tagging.h emulator/pmu/tagging.cpp \
	emulator/pmu/cycle_buckets.h emulator/pmu/cycle_buckets.cpp \
	emulator/pmu/activity.h emulator/pmu/activity.cpp \
	emulator/pmu/pmi.h emulator/pmu/pmi.cpp \
	emulator/pmu/sampled_counters.h emulator/pmu/sampled_counters.cpp \
	emulator/pmu/unit_regression.h emulator/pmu/unit_regression.cpp \
	emulator/pmu/pebs.h emulator/pmu/pebs.cpp \
	emulator/pmu/memory_window.h emulator/pmu/memory_window.cpp \
	emulator/pmu/record_ring.h
include $(srcdir)/tests/pmu/local.mk
