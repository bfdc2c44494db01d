#!/usr/bin/env bash
# One entry point for people and CI: installs what is missing, configures and builds in ./build, then runs
# the requested job. See README.md.
#
#   ./quickstart.sh demo      build everything and run the main job
#   ./quickstart.sh test      build everything and run the tests
#   ./quickstart.sh sanitize  the unit tests under AddressSanitizer and UndefinedBehaviorSanitizer (./build-asan)
#   ./quickstart.sh fuzz      fuzz the event-string parser and allocator for FUZZ_SECONDS (default 60; ./build-fuzz)
#   ./quickstart.sh bench     print the benchmark figures
#   ./quickstart.sh papi-tests  PAPI's own test suites under netburst-run, with fixed reduced work (doc/papi-tests.md;
#                               CI runs this); add --full for PAPI's own work sizes (the long job: hours)
set -euo pipefail
top=$(cd "$(dirname "$0")" && pwd)
cd "$top"
job=${1:-}
jobs=$(nproc 2>/dev/null || echo 2)

scripts/install-deps.sh
if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
  autoreconf -fi
fi

# configure_in DIR [configure arguments...]: (re)configures DIR when it has no Makefile yet.
configure_in() {
  local dir=$1; shift
  mkdir -p "$dir"
  if [ ! -f "$dir/Makefile" ]; then
    (cd "$dir" && "$top/configure" --prefix="$top/$dir/prefix" "$@")
  fi
}

case "$job" in
  demo)
    configure_in build
    make -C build -j"$jobs"
    make -C build demo
    ;;
  test)
    configure_in build
    make -C build -j"$jobs"
    make -C build -j"$jobs" check || { cat build/test-suite.log; exit 1; }
    ;;
  sanitize)
    san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    configure_in build-asan --disable-papi CXXFLAGS="-g -O1 $san" LDFLAGS="$san"
    make -C build-asan -j"$jobs" check || { cat build-asan/test-suite.log; exit 1; }
    ;;
  fuzz)
    configure_in build-fuzz --disable-papi CC=clang CXX=clang++ \
      CXXFLAGS="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize=fuzzer-no-link"
    make -C build-fuzz -j"$jobs" fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
    ;;
  bench)
    configure_in build
    make -C build -j"$jobs" bench
    ;;
  papi-tests)
    full=
    case ${2:-} in
      "") ;;
      --full) full=-F ;;
      *) echo "quickstart.sh papi-tests: unknown option ${2} (--full runs PAPI's own work sizes)" >&2; exit 2 ;;
    esac
    configure_in build
    make -C build -j"$jobs"
    scripts/run-papi-tests.sh -b build -j 2 -m $full
    ;;
  *)
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
