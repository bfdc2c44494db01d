# netburst-run (included from emulator/local.mk): the launcher that runs a program under the netburst Valgrind
# tool, with the events placed by the allocator. It finds the tool next to itself in the build tree, or in
# pkglibdir/valgrind once installed. The event planning and the report are a library: the integration tests
# make their event programs with it.
noinst_LIBRARIES += libnetburst_run.a
libnetburst_run_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
libnetburst_run_a_CXXFLAGS = $(AM_CXXFLAGS) $(JSON_CFLAGS)
libnetburst_run_a_SOURCES = \
	emulator/run/event_plan.h emulator/run/event_plan.cpp \
	emulator/run/report.h emulator/run/report.cpp

bin_PROGRAMS += netburst-run
netburst_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) -DNB_VALGRIND_TOOLDIR='"$(pkglibdir)/valgrind"'
netburst_run_CXXFLAGS = $(AM_CXXFLAGS) $(JSON_CFLAGS)
netburst_run_LDADD = libnetburst_run.a libnetburst_vghost.a $(CORE_LIBS)
netburst_run_SOURCES = \
	emulator/run/main.cpp \
	emulator/run/launch.h emulator/run/launch.cpp

# The example `make demo` runs (built with fixed flags: it runs under Valgrind, which cannot run sanitized code).
examples/matmul: $(srcdir)/examples/matmul.c
	@$(MKDIR_P) examples
	$(AM_V_CC)$(CC) -O2 -g $(WARN_CFLAGS) -o $@ $(srcdir)/examples/matmul.c
CLEANFILES += examples/matmul
EXTRA_DIST += examples/matmul.c
