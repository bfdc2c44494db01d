#!/usr/bin/env bash
# Puts PAPI 7.0.0's source tree at DEST (DEST/src/papi.h, DEST/src/configure, ...), for the PAPI build (papi.mk).
#
#   get-papi-source.sh DEST                  from Debian's source package: apt-get source papi (Debian's patches
#                                            applied by dpkg-source, as Debian builds it)
#   get-papi-source.sh --from DIR DEST       from an unpacked tree (the directory that holds src/)
#   get-papi-source.sh --from TARBALL DEST   from a release tarball (papi-7.0.0.tar.gz, or Debian's .orig.tar.gz)
#
# apt-get source needs deb-src entries. When apt knows no source package for papi, this script adds deb-src
# entries mirroring the Debian archive's deb entries (sources.list and deb822 .sources files) and runs
# apt-get update, as root or through sudo; without either it stops and says what to do.
#
# The tree must be PAPI 7.0.0: the component, the patches in patches/papi/ and the test-suite expectations are
# written against it. An existing DEST of the right version is kept.
set -euo pipefail

want_version=7.0.0
from=
usage() { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --from) [ $# -ge 2 ] || usage; from=$2; shift 2 ;;
    -h|--help) usage ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || usage
dest=$1

die() { echo "get-papi-source: $*" >&2; exit 1; }

# papi_version DIR: the version PAPI's own header declares, e.g. 7.0.0 (from PAPI_VERSION_NUMBER(7,0,0,0)).
papi_version() {
  sed -n 's/^#define[[:space:]]*PAPI_VERSION[[:space:]]*PAPI_VERSION_NUMBER(\([0-9]*\),\([0-9]*\),\([0-9]*\),[0-9]*).*/\1.\2.\3/p' \
    "$1/src/papi.h" 2>/dev/null | head -n1
}

check_tree() {
  local dir=$1 what=$2 v
  [ -f "$dir/src/papi.h" ] && [ -x "$dir/src/configure" ] || die "$what is not a PAPI source tree (no src/papi.h and src/configure)"
  v=$(papi_version "$dir")
  [ "$v" = "$want_version" ] || die "$what is PAPI ${v:-of unknown version}; papi-netburst needs PAPI $want_version"
}

if [ -d "$dest" ] && [ "$(papi_version "$dest")" = "$want_version" ]; then
  exit 0
fi
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
work=$(mktemp -d "$(dirname "$dest")/.papi-source.XXXXXX")
chmod 755 "$work"  # apt-get source downloads as the _apt user when it can
trap 'rm -rf "$work"' EXIT

# The single top-level directory an unpacked source has (papi-7.0.0), or the directory itself.
top_of() {
  local dir=$1 entries
  entries=$(find "$dir" -mindepth 1 -maxdepth 1 -type d)
  if [ -f "$dir/src/papi.h" ]; then echo "$dir"; elif [ "$(echo "$entries" | wc -l)" -eq 1 ]; then echo "$entries"; else
    die "cannot find the PAPI tree in $dir"; fi
}

if [ -n "$from" ]; then
  if [ -d "$from" ]; then
    check_tree "$from" "$from"
    cp -a "$from" "$work/tree"
  elif [ -f "$from" ]; then
    mkdir "$work/unpack"
    tar -xf "$from" -C "$work/unpack" || die "cannot unpack $from"
    mv "$(top_of "$work/unpack")" "$work/tree"
    check_tree "$work/tree" "$from"
  else
    die "$from: no such file or directory"
  fi
  mv "$work/tree" "$dest"
  echo "get-papi-source: PAPI $want_version from $from in $dest"
  exit 0
fi

# --- Debian's source package -----------------------------------------------------------------------------------
command -v apt-get >/dev/null || die "apt-get is not available: give configure --with-papi-source=DIR|TARBALL"
command -v dpkg-source >/dev/null || die "dpkg-source is missing: install the Debian package dpkg-dev (scripts/install-deps.sh)"

# shellcheck source=lib/deb-src.sh
. "$(dirname "$0")/lib/deb-src.sh"
version=$(ensure_source_package papi "$want_version-" "give configure --with-papi-source=DIR|TARBALL") ||
  die "no papi $want_version source package (above)"

(cd "$work" && apt-get source -qq "papi=$version" >/dev/null) ||
  die "apt-get source papi=$version failed; give configure --with-papi-source=DIR|TARBALL"
tree=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name "papi-$want_version*" | head -n1)
[ -n "$tree" ] || die "apt-get source papi=$version left no papi-$want_version directory"
check_tree "$tree" "Debian's papi $version"
mv "$tree" "$dest"
echo "get-papi-source: PAPI $want_version from Debian's source package papi $version in $dest"
