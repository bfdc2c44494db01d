#!/usr/bin/env bash
# Installs the Debian 12 packages papi-netburst builds and tests with, when they are missing. valgrind provides both
# the tool SDK the netburst Valgrind tool is built against and the valgrind (and cachegrind) the tests run.
# Runs apt-get as root, or through sudo; does nothing when everything is present.
# The PAPI build needs dpkg-dev (dpkg-source, for apt-get source papi), gfortran (PAPI's Fortran tests and ours)
# and valgrind (valgrind/valgrind.h, the client requests the component reaches the emulator with).
# openmpi-bin and libopenmpi-dev build and launch the MPI example (examples/stencil.c, doc/mpi.md).
# scripts/invariance.sh runs gzip and bzip2 under the emulator; the integration tests run hwloc's lstopo-no-graphics
# under it (the guest's topology and caches, doc/guest-cpu.md).
# libgmp10 is the generic GMP the whole-loop suite times (scripts/gmp-loops.sh); the suite builds GMP's source
# package again for pentium4 with dpkg-dev, autoconf, automake, libtool and m4.
# linux-perf reads what `netburst-run record` writes (perf report, script, annotate, mem report; its tests check
# that); gnuplot-nox draws the l1_miss sampling figures (scripts/l1_miss-figures.py, doc/sampling.md); python3 runs
# that script and scripts/bench-workloads.py.
# gcc-multilib, g++-multilib and libc6-dev-i386 build 32-bit programs (gcc -m32) and the tool's x86-linux variant,
# which runs them; Debian's valgrind package already ships the x86-linux libcoregrind and libvex.
# gfortran-multilib (lib32gfortran) links 32-bit Fortran programs: the 32-bit libpapi's Fortran interface and
# PAPI's ftests built -m32.
# The :i386 packages come from Debian's i386 architecture, added to dpkg first (multiarch): libhwloc15:i386 for
# the 32-bit libpapi (the kernel MSR backend maps CPUs with hwloc; the headers are the amd64 package's, and the
# i386 libhwloc-dev drags in an i386 libc6-dev that a mirror mid-sync can refuse), libgmp-dev:i386 for GMP's
# 32-bit loops (scripts/gmp-loops.sh).
set -euo pipefail

packages=(
  build-essential autoconf automake libtool autoconf-archive pkgconf
  libgtest-dev libgmock-dev googletest libbenchmark-dev libhwloc-dev nlohmann-json3-dev help2man
  clang libclang-rt-14-dev
  dpkg-dev gfortran valgrind
  openmpi-bin libopenmpi-dev
  gzip bzip2 hwloc libgmp10 m4
  linux-perf gnuplot-nox python3
  gcc-multilib g++-multilib gfortran-multilib libc6-dev-i386
  libhwloc15:i386 libgmp-dev:i386
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
  echo "install-deps: these packages are missing and apt-get is not available: ${missing[*]}" >&2
  exit 1
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then as_root=(sudo); else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}" >&2
case " ${missing[*]}" in
  *:i386*) dpkg --print-foreign-architectures | grep -qx i386 || "${as_root[@]}" dpkg --add-architecture i386 ;;
esac
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
  echo "install-deps: apt-get update could not read every index (a mirror mid-sync?); installing from what it read" >&2
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
