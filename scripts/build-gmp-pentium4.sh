#!/usr/bin/env bash
# Builds GMP for a Pentium 4, from the Debian source package of the libgmp10 installed here, for the whole-loop
# suite (scripts/gmp-loops.sh, doc/fidelity.md "Library loops"). GMP's configure picks its mpn assembly by CPU:
# --build=pentium4-pc-linux-gnu selects mpn/x86_64/pentium4 before mpn/x86_64 (GMP's configure.ac, path_64), the
# code a 64-bit Pentium 4 runs and the code the "Intel P4" rows of those files were measured with. Debian's own
# libgmp is built for the generic x86-64 path, so the two libraries hold the generic and the P4-tuned code of the
# same functions.
#
#   scripts/build-gmp-pentium4.sh [-b BUILD]
#     -b BUILD  the build directory (default: build); the library lands in BUILD/gmp-pentium4/.libs/libgmp.so.10
#
# Does nothing when that library exists. Needs dpkg-dev, autoconf, automake, libtool and m4
# (scripts/install-deps.sh), and deb-src entries (added, as get-papi-source.sh does, when missing).
set -euo pipefail
build=build
while getopts "b:h" opt; do
  case $opt in
    b) build=$OPTARG ;;
    *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
die() { echo "build-gmp-pentium4: $*" >&2; exit 1; }
[ -d "$build" ] || die "no build directory $build"
build=$(cd "$build" && pwd)
dest=$build/gmp-pentium4
lib=$dest/.libs/libgmp.so.10
[ -f "$lib" ] && exit 0

command -v dpkg-source >/dev/null || die "dpkg-source is missing: install dpkg-dev (scripts/install-deps.sh)"
command -v autoreconf >/dev/null || die "autoreconf is missing: install autoconf (scripts/install-deps.sh)"
# The same upstream version and Debian revision as the installed libgmp10 (without its epoch), so both libraries
# are one GMP.
installed=$(dpkg-query -W -f='${Version}' libgmp10 2>/dev/null) || die "libgmp10 is not installed (apt-get install libgmp-dev)"
want=${installed#*:}

rm -rf "$dest" "$build/gmp-source"
mkdir -p "$build/gmp-source"
work=$(mktemp -d "$build/.gmp-source.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
# shellcheck source=lib/deb-src.sh
. "$(dirname "$0")/lib/deb-src.sh"
version=$(ensure_source_package gmp "$installed" \
  "build GMP $want yourself with --build=pentium4-pc-linux-gnu into $dest") ||
  die "no gmp $installed source package (above)"
(cd "$work" && apt-get source -qq --download-only "gmp=$version" >/dev/null 2>&1) || die "apt-get source gmp=$version failed"
dsc=$(find "$work" -maxdepth 1 -name 'gmp_*.dsc' | head -n1)
[ -n "$dsc" ] || die "apt-get source gmp=$version left no .dsc"
dpkg-source -x "$dsc" "$build/gmp-source/tree" >"$build/gmp-source/dpkg-source.log" 2>&1 ||
  die "dpkg-source failed; see $build/gmp-source/dpkg-source.log"
# Debian's source drops GMP's manual, and its patch removes doc/ from configure.ac, so configure must be
# regenerated as Debian's own build does (dh_autoreconf). -i without -f: GMP's config.guess and config.sub are
# GMP's own wrappers that know CPU names such as pentium4, and must not be replaced by the generic ones.
(cd "$build/gmp-source/tree" && autoreconf -i >"$build/gmp-source/autoreconf.log" 2>&1) ||
  die "autoreconf failed; see $build/gmp-source/autoreconf.log"
mkdir -p "$dest"
(cd "$dest" && "$build/gmp-source/tree/configure" --build=pentium4-pc-linux-gnu --disable-static --enable-shared \
  >configure.log 2>&1) || die "GMP's configure failed; see $dest/configure.log"
grep -q '^ABI=64' "$dest/config.log" || die "GMP did not choose the 64-bit ABI; see $dest/config.log"
make -C "$dest" -j2 >"$dest/make.log" 2>&1 || die "building GMP failed; see $dest/make.log"
[ -f "$lib" ] || die "no $lib after the build"
echo "build-gmp-pentium4: GMP $want for pentium4 (mpn/x86_64/pentium4, mpn/x86_64) in $lib"
