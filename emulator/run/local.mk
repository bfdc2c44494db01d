# netburst-run (included from emulator/local.mk): the launcher that runs a program under the netburst Valgrind
# tool, with the events placed by the allocator. It finds the tool next to itself in the build tree, or in
# pkglibdir/valgrind once installed. The event planning, the report and the shared options are a library: the
# integration tests make their event programs with it, and the unit tests parse options with it.
noinst_LIBRARIES += libnetburst_run.a
libnetburst_run_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
libnetburst_run_a_CXXFLAGS = $(AM_CXXFLAGS) $(JSON_CFLAGS)
libnetburst_run_a_SOURCES = \
	emulator/run/event_plan.h emulator/run/event_plan.cpp \
	emulator/run/report.h emulator/run/report.cpp \
	emulator/run/run_options.h emulator/run/run_options.cpp \
	emulator/run/output_pattern.h emulator/run/output_pattern.cpp \
	emulator/run/progress.h emulator/run/progress.cpp \
	emulator/run/merge_input.h emulator/run/merge_input.cpp \
	emulator/run/merge_stats.h emulator/run/merge_stats.cpp \
	emulator/run/merge_format.h emulator/run/merge_format.cpp \
	emulator/run/all_events.h emulator/run/all_events.cpp \
	emulator/run/profile.h emulator/run/sample_plan.h emulator/run/sample_plan.cpp \
	emulator/run/sample_input.h emulator/run/sample_input.cpp \
	emulator/run/perf_data.h emulator/run/perf_data.cpp \
	emulator/run/callgrind_out.h emulator/run/callgrind_out.cpp \
	emulator/run/elf_file.h emulator/run/elf_file.cpp \
	emulator/run/guest_platform.h emulator/run/guest_platform.cpp

bin_PROGRAMS += netburst-run
netburst_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) -DNB_VALGRIND_TOOLDIR='"$(pkglibdir)/valgrind"'
netburst_run_CXXFLAGS = $(AM_CXXFLAGS) $(JSON_CFLAGS)
# netburst-run's libraries, which its tests link too.
NB_RUN_LIBS = libnetburst_run.a libnetburst_sampling.a libnetburst_protocol.a libnetburst_vghost.a libnetburst_emu.a \
	$(CORE_LIBS)
netburst_run_LDADD = $(NB_RUN_LIBS)
netburst_run_SOURCES = \
	emulator/run/main.cpp \
	emulator/run/merge_main.h emulator/run/merge_main.cpp \
	emulator/run/record_main.h emulator/run/record_main.cpp \
	emulator/run/launch.h emulator/run/launch.cpp \
	emulator/run/cpu_view.h emulator/run/cpu_view.cpp

# The example `make demo` runs (built with fixed flags: it runs under Valgrind, which cannot run sanitized code).
examples/matmul: $(srcdir)/examples/matmul.c
	@$(MKDIR_P) examples
	$(AM_V_CC)$(CC) -O2 -g $(WARN_CFLAGS) -o $@ $(srcdir)/examples/matmul.c
CLEANFILES += examples/matmul
EXTRA_DIST += examples/matmul.c

# Sprunt's l1_miss (doc/sampling.md): the record tests sample it, scripts/l1_miss-figures.py draws its figures.
examples/l1_miss: $(srcdir)/examples/l1_miss.c $(srcdir)/examples/l1_miss_ring.h
	@$(MKDIR_P) examples
	$(AM_V_CC)$(CC) -O2 -g $(WARN_CFLAGS) -o $@ $(srcdir)/examples/l1_miss.c
check_SCRIPTS += examples/l1_miss
CLEANFILES += examples/l1_miss
EXTRA_DIST += examples/l1_miss.c examples/l1_miss_ring.h scripts/l1_miss-figures.py

include $(srcdir)/tests/run/local.mk

# The MPI example's check (scripts/mpi-check.sh): built with the tests, run by the script after mpirun.
check_PROGRAMS += tests/mpi/check_stencil_ranks
tests_mpi_check_stencil_ranks_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_mpi_check_stencil_ranks_CXXFLAGS = $(AM_CXXFLAGS) $(JSON_CFLAGS)
tests_mpi_check_stencil_ranks_LDADD = libnetburst_run.a $(CORE_LIBS)
tests_mpi_check_stencil_ranks_SOURCES = tests/mpi/check_stencil_ranks.cpp
EXTRA_DIST += examples/stencil.c
