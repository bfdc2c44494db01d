/* A system-call-heavy program: many small writes to /dev/null and reads of /dev/zero, each one system call, with
 * little work between them. One of the workloads of scripts/bench-workloads.sh.
 *
 *   syscalls [CALLS] */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv) {
    const long calls = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
    const int in = open("/dev/zero", O_RDONLY), out = open("/dev/null", O_WRONLY);
    if (in < 0 || out < 0) return 2;
    char buf[64];
    long sum = 0;
    for (long i = 0; i < calls; i++) {
        if (read(in, buf, sizeof buf) != (ssize_t)sizeof buf) return 1;
        buf[i % sizeof buf] = (char)i;
        sum += buf[(i * 7) % sizeof buf];
        if (write(out, buf, sizeof buf) != (ssize_t)sizeof buf) return 1;
    }
    printf("%ld\n", sum);
    return 0;
}
