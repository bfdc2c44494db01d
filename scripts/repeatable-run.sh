# Sourced by the scripts that run programs repeatably (invariance.sh, counts-snapshot.sh): what they share.
#
# find_pid_namespace: sets the array pid_namespace to an unshare command that runs a command in new mount and PID
# namespaces with its own /proc. PAPI builds /proc/PID paths, so without it a program's counts move with the number
# of digits of its process id. Root can make the namespaces; otherwise unprivileged user namespaces are tried.
# Returns 1, with pid_namespace empty, when neither works.
find_pid_namespace() {
  pid_namespace=(unshare --mount --pid --fork --mount-proc)
  "${pid_namespace[@]}" true 2>/dev/null && return 0
  pid_namespace=(unshare --user --map-root-user --mount --pid --fork --mount-proc)
  "${pid_namespace[@]}" true 2>/dev/null && return 0
  pid_namespace=()
  return 1
}

# fixed_text SEED BYTES: about BYTES of English-like text, the same for a given SEED on every machine: words chosen by
# a Park-Miller generator (exact in awk's doubles), a line break after about one word in eleven.
fixed_text() {
  awk -v x="$1" -v size="$2" 'BEGIN {
    split("the of and to in is that for it as with was on be by at this from which or an are not but " \
          "matrix cache branch cycle replay load store counter event thread", w, " ");
    n = 0;
    while (n < size) { x = (x * 16807) % 2147483647; s = w[1 + x % 33];
                       if (x % 11 == 0) s = s "\n"; else s = s " "; printf "%s", s; n += length(s) } }'
}
