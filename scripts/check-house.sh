#!/bin/sh
# Two rules of the source tree's layout, checked by `make check`:
#  1. Only the Valgrind tool includes the tool's headers (emulator/valgrind/): the component, netburst-run and the
#     emulator's other folders reach what they share with the tool through emulator/protocol/.
#  2. No circle among the tool's C files: in the file-level call graph (file A uses a function or variable that
#     file B defines, from `nm` of the tool's objects), no strongly connected component holds more than one file.
#     A circle means no file of it can be read, or changed, without the others.
#
# Usage: scripts/check-house.sh [-b BUILD_DIR] [-g]
#   -b BUILD_DIR  the build tree whose tool objects are read [the current directory, as in make check]
#   -g            also print the call graph, one line per file: FILE -> the files it uses
# Exits 1 when a rule is broken, naming what breaks it.
set -eu

build=.
graph=no
while getopts b:g opt; do
    case $opt in
    b) build=$OPTARG ;;
    g) graph=yes ;;
    *) echo "usage: $0 [-b BUILD_DIR] [-g]" >&2; exit 2 ;;
    esac
done
src=${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
status=0

# ---- 1. Includes of emulator/valgrind/ from outside the tool ----------------------------------------------------
outside="src emulator/run emulator/sampling emulator/protocol emulator/x86 emulator/core emulator/pmu emulator/model
         emulator/trace emulator/tools"
found=$(cd "$src" && for d in $outside; do [ -d "$d" ] && echo "$d"; done |
    xargs -r grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]emulator/valgrind/' \
        --include='*.h' --include='*.c' --include='*.cpp' || true)
if [ -n "$found" ]; then
    echo "check-house: included from outside the Valgrind tool (move what they share to emulator/protocol/):"
    echo "$found" | sed 's/^/  /'
    status=1
fi

# ---- 2. Circles among the tool's C files --------------------------------------------------------------------------
objdir=$build/emulator/valgrind/tool-objs/emulator/valgrind
if ! ls "$objdir"/nb_*.o >/dev/null 2>&1; then
    echo "check-house: no tool objects in $objdir (build the tool first: make nb-vgtool)" >&2
    exit 1
fi
# The objects are link-time-optimisation objects: gcc-nm reads their symbols wherever nm lacks the plugin.
nm=nm
command -v gcc-nm >/dev/null 2>&1 && nm=gcc-nm
symbols=$(for o in "$objdir"/*.o; do
    name=$(basename "$o" .o)
    [ -f "$src/emulator/valgrind/$name.c" ] || continue
    "$nm" "$o" | awk -v f="$name.c" '
        $1 == "U" { print f, "U", $2; next }
        NF == 3 && $2 ~ /^[A-TV-Z]$/ { print f, "D", $3 }'
done)

# An arrow A -> B for each symbol A uses and B defines; a circle is a set of files that all reach one another.
echo "$symbols" | LC_ALL=C sort | awk -v graph="$graph" '
    $2 == "D" { owner[$3] = $1; files[$1] = 1 }
    $2 == "U" { uses[++n] = $1 " " $3; files[$1] = 1 }
    END {
        for (i = 1; i <= n; i++) {
            split(uses[i], u, " ")
            if ((u[2] in owner) && owner[u[2]] != u[1]) edge[u[1], owner[u[2]]] = 1
        }
        nf = 0
        for (f in files) name[++nf] = f
        for (i = 2; i <= nf; i++)  # sorted, so that the output does not depend on the awk
            for (j = i; j > 1 && name[j - 1] > name[j]; j--) { t = name[j]; name[j] = name[j - 1]; name[j - 1] = t }
        for (i = 1; i <= nf; i++)
            for (j = 1; j <= nf; j++) reach[i, j] = i == j || ((name[i], name[j]) in edge)
        for (k = 1; k <= nf; k++)
            for (i = 1; i <= nf; i++)
                if (reach[i, k])
                    for (j = 1; j <= nf; j++) if (reach[k, j]) reach[i, j] = 1
        arrows = 0
        for (i = 1; i <= nf; i++) {
            line = ""
            for (j = 1; j <= nf; j++)
                if ((name[i], name[j]) in edge) { line = line " " name[j]; arrows++ }
            if (graph == "yes") print "  " name[i] " ->" line
        }
        if (graph == "yes") print "  " nf " files, " arrows " arrows"
        circles = 0
        for (i = 1; i <= nf; i++) {
            if (done[i]) continue
            component = name[i]
            size = 1
            for (j = i + 1; j <= nf; j++)
                if (reach[i, j] && reach[j, i]) { component = component " " name[j]; size++; done[j] = 1 }
            if (size > 1) { print "check-house: a circle among the tool C files: " component; circles++ }
        }
        exit circles > 0
    }' || status=1

exit $status
