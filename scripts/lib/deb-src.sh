# Sourced by the scripts that fetch a Debian source package (get-papi-source.sh for PAPI, build-gmp-pentium4.sh for
# GMP): apt-get source needs deb-src entries, which a fresh Debian 12 does not have.
#
#   ensure_source_package NAME VERSION_PREFIX WHAT_TO_DO
#     makes apt know a source package NAME whose version starts with VERSION_PREFIX, adding deb-src entries that
#     mirror the Debian archive's deb entries and running apt-get update (as root or through sudo) when it does
#     not; prints that version. On failure it prints why and WHAT_TO_DO to stderr and returns 1.
# Needs a scratch directory in $work.

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"
  else return 1; fi
}

# The newest version of source package $1 that apt knows and that starts with $2, or nothing.
known_source_version() {
  apt-cache showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p' | awk -v p="$2" 'index($0, p) == 1' | head -n1 || true
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

ensure_source_package() {
  local name=$1 prefix=$2 todo=$3 version list entries
  version=$(known_source_version "$name" "$prefix")
  if [ -n "$version" ]; then echo "$version"; return 0; fi
  list=/etc/apt/sources.list.d/papi-netburst-deb-src.sources
  entries=$(mirror_deb_entries)
  if grep -rqs '^[[:space:]]*deb-src\|^Types:.*deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/ ||
     [ -z "$entries" ]; then
    entries=  # deb-src entries exist already: only the package lists are missing
  fi
  echo "apt knows no source package $name $prefix*; enabling deb-src entries and updating" >&2
  if [ -n "$entries" ]; then
    printf '# Added by papi-netburst (scripts/lib/deb-src.sh): deb-src entries mirroring the deb entries,\n# for apt-get source.\n%s\n' \
      "$entries" > "$work/deb-src.sources"
    if ! as_root install -m 644 "$work/deb-src.sources" "$list"; then
      printf 'need root or sudo to add deb-src entries to %s. Either run as root (or with sudo), add deb-src\n  entries for the Debian archive yourself and run apt-get update, or %s\n' "$list" "$todo" >&2
      return 1
    fi
  fi
  if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq; then
    echo "apt-get update failed (or needs root/sudo); run it, or $todo" >&2
    return 1
  fi
  version=$(known_source_version "$name" "$prefix")
  if [ -z "$version" ]; then
    echo "Debian's archive has no $name $prefix* source package here (apt-cache showsrc $name); $todo" >&2
    return 1
  fi
  echo "$version"
}
