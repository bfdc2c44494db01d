#!/usr/bin/env bash
# Builds GMP for a Pentium 4, from the Debian source package of the libgmp10 installed here, for the whole-loop
# suite (scripts/gmp-loops.sh, doc/fidelity.md "Library loops"). GMP's configure picks its mpn assembly by CPU:
# --build=pentium4-pc-linux-gnu selects mpn/x86_64/pentium4 before mpn/x86_64 (GMP's configure.ac, path_64), the
# code a 64-bit Pentium 4 runs and the code the "Intel P4" rows of those files were measured with. Debian's own
# libgmp is built for the generic x86-64 path, so the two libraries hold the generic and the P4-tuned code of the
# same functions. With -a 32 the same source is built as i386 code (GMP's ABI=32): mpn/x86/pentium4/sse2,
# mpn/x86/pentium4/mmx, mpn/x86/pentium4, mpn/x86/mmx, mpn/x86 (configure.ac's path for pentium4), the code a
# Northwood or a 32-bit Prescott runs, whose files carry separate Northwood and Prescott rows.
#
#   scripts/build-gmp-pentium4.sh [-b BUILD] [-a 64|32]
#     -b BUILD  the build directory (default: build); the library lands in BUILD/gmp-pentium4/.libs/libgmp.so.10
#               (-a 64, the default) or BUILD/gmp-pentium4-32/.libs/libgmp.so.10 (-a 32)
#     -a ABI    GMP's ABI: 64 (x86-64 code) or 32 (i386 code; needs gcc-multilib)
#
# Does nothing when that library exists. Needs dpkg-dev, autoconf, automake, libtool and m4
# (scripts/install-deps.sh), and deb-src entries (added, as get-papi-source.sh does, when missing). Both ABIs
# build from one extracted source tree, BUILD/gmp-source/tree.
set -euo pipefail
build=build
abi=64
while getopts "b:a:h" opt; do
  case $opt in
    b) build=$OPTARG ;;
    a) abi=$OPTARG ;;
    *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
die() { echo "build-gmp-pentium4: $*" >&2; exit 1; }
[ -d "$build" ] || die "no build directory $build"
build=$(cd "$build" && pwd)
case $abi in
  64) dest=$build/gmp-pentium4; paths="mpn/x86_64/pentium4, mpn/x86_64" ;;
  32) dest=$build/gmp-pentium4-32; paths="mpn/x86/pentium4/sse2, mpn/x86/pentium4/mmx, mpn/x86/pentium4, mpn/x86" ;;
  *) die "-a takes 64 or 32, not $abi" ;;
esac
lib=$dest/.libs/libgmp.so.10
[ -f "$lib" ] && exit 0

command -v dpkg-source >/dev/null || die "dpkg-source is missing: install dpkg-dev (scripts/install-deps.sh)"
command -v autoreconf >/dev/null || die "autoreconf is missing: install autoconf (scripts/install-deps.sh)"
# The same upstream version and Debian revision as the installed libgmp10 (without its epoch), so both libraries
# are one GMP.
# With libgmp10:i386 installed too, dpkg-query prints a version per architecture; multiarch keeps them equal.
installed=$(dpkg-query -W -f='${Version}\n' libgmp10 2>/dev/null | head -n1)
[ -n "$installed" ] || die "libgmp10 is not installed (apt-get install libgmp-dev)"
want=${installed#*:}

rm -rf "$dest"
# The source tree is extracted and regenerated once (the stamp says it was) and serves both ABIs.
if [ ! -f "$build/gmp-source/tree/.autoreconf-done" ]; then
  rm -rf "$build/gmp-source"
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
  touch "$build/gmp-source/tree/.autoreconf-done"
fi
mkdir -p "$dest"
(cd "$dest" && "$build/gmp-source/tree/configure" --build=pentium4-pc-linux-gnu --disable-static --enable-shared \
  ABI="$abi" >configure.log 2>&1) || die "GMP's configure failed; see $dest/configure.log"
grep -q "^ABI=$abi" "$dest/config.log" || die "GMP did not choose the $abi-bit ABI; see $dest/config.log"
make -C "$dest" -j2 >"$dest/make.log" 2>&1 || die "building GMP failed; see $dest/make.log"
[ -f "$lib" ] || die "no $lib after the build"
echo "build-gmp-pentium4: GMP $want for pentium4, ABI=$abi ($paths) in $lib"
