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

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"
  else return 1; fi
}

# The version of Debian's papi source package that is PAPI 7.0.0 (7.0.0-2 on Debian 12), or nothing.
source_version() {
  apt-cache showsrc papi 2>/dev/null | sed -n 's/^Version: //p' | grep "^$want_version-" | head -n1 || true
}

# Writes deb-src stanzas for the Debian archive's deb entries to stdout, in deb822 form: the same URIs, suites,
# components and keys, with Types: deb-src. Third-party repositories are left out: few publish sources, and a
# missing index would make apt-get update fail.
mirror_deb_entries() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v RS= -v ORS='\n\n' '
      /(^|\n)Types:[^\n]*(^|[ \t])deb([ \t]|\n|$)/ && /(^|\n)URIs:[^\n]*debian/ {
        n = split($0, lines, "\n"); out = ""
        for (i = 1; i <= n; i++) {
          if (lines[i] ~ /^#/) continue
          if (lines[i] ~ /^Types:/) lines[i] = "Types: deb-src"
          if (lines[i] ~ /^Enabled:[ \t]*no/) { out = ""; break }
          out = out lines[i] "\n"
        }
        if (out != "") printf "%s\n", out
      }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '$1 == "deb" && $0 ~ /debian/ {
      opts = ""; i = 2
      if ($2 ~ /^\[/) { while ($i !~ /\]$/) { opts = opts " " $i; i++ } opts = opts " " $i; i++ }
      uri = $i; suite = $(i + 1); comps = ""
      for (j = i + 2; j <= NF; j++) comps = comps " " $j
      keys = ""
      if (match(opts, /signed-by=[^] ]*/)) keys = "Signed-By: " substr(opts, RSTART + 10, RLENGTH - 10) "\n"
      printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:%s\n%s\n", uri, suite, comps, keys
    }' "$f"
  done
}

version=$(source_version)
if [ -z "$version" ]; then
  list=/etc/apt/sources.list.d/papi-netburst-deb-src.sources
  entries=$(mirror_deb_entries)
  if grep -rqs '^[[:space:]]*deb-src\|^Types:.*deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/ ||
     [ -z "$entries" ]; then
    entries=  # deb-src entries exist already: only the package lists are missing
  fi
  echo "get-papi-source: apt knows no source package papi $want_version; enabling deb-src entries and updating" >&2
  if [ -n "$entries" ]; then
    printf '# Added by papi-netburst (scripts/get-papi-source.sh): deb-src entries mirroring the deb entries,\n# for apt-get source papi.\n%s\n' \
      "$entries" > "$work/deb-src.sources"
    as_root install -m 644 "$work/deb-src.sources" "$list" ||
      die "need root or sudo to add deb-src entries to $list. Either run configure as root (or with sudo),
  add deb-src entries for the Debian archive yourself and run apt-get update, or give configure
  --with-papi-source=DIR|TARBALL (a PAPI $want_version tree or tarball)"
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
    die "apt-get update failed (or needs root/sudo); run it, or give configure --with-papi-source=DIR|TARBALL"
  version=$(source_version)
  [ -n "$version" ] || die "Debian's archive has no papi $want_version source package here (apt-cache showsrc papi);
  give configure --with-papi-source=DIR|TARBALL"
fi

(cd "$work" && apt-get source -qq "papi=$version" >/dev/null) ||
  die "apt-get source papi=$version failed; give configure --with-papi-source=DIR|TARBALL"
tree=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name "papi-$want_version*" | head -n1)
[ -n "$tree" ] || die "apt-get source papi=$version left no papi-$want_version directory"
check_tree "$tree" "Debian's papi $version"
mv "$tree" "$dest"
echo "get-papi-source: PAPI $want_version from Debian's source package papi $version in $dest"
