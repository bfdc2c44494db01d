# Sourced by the scripts that run programs repeatably (invariance.sh, counts-snapshot.sh).
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
