/* Fault injection for the store: calls number FIRST .. FIRST+COUNT-1 of one libc function fail.
 *
 * LD_PRELOAD this into a process and set MAGBOARD_FAULT=FUNCTION:ERRNO:FIRST:COUNT, e.g.
 * "pwrite64:28:10:3" - the 10th to 12th pwrite64 calls fail with ENOSPC. FUNCTION is one of the
 * calls SQLite makes to write and sync its files (pwrite64, fdatasync, ftruncate64); the process's
 * own output (write) is left alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static char which[32];
static long fault_errno, first = -1, count;
static long calls;

static void configure(void) {
    static int done;
    if (done)
        return;
    done = 1;
    const char *spec = getenv("MAGBOARD_FAULT");
    if (spec == NULL || sscanf(spec, "%31[^:]:%ld:%ld:%ld", which, &fault_errno, &first, &count) != 4)
        first = -1;
}

static int fails(const char *name) {
    configure();
    if (first < 0 || strcmp(name, which) != 0)
        return 0;
    long call = __atomic_fetch_add(&calls, 1, __ATOMIC_SEQ_CST);
    if (call >= first && call < first + count) {
        errno = (int)fault_errno;
        return 1;
    }
    return 0;
}

typedef ssize_t (*pwrite64_fn)(int, const void *, size_t, off64_t);
typedef int (*fdatasync_fn)(int);
typedef int (*ftruncate64_fn)(int, off64_t);

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t offset) {
    static pwrite64_fn real;
    if (!real)
        real = (pwrite64_fn)dlsym(RTLD_NEXT, "pwrite64");
    return fails("pwrite64") ? -1 : real(fd, buf, n, offset);
}

int fdatasync(int fd) {
    static fdatasync_fn real;
    if (!real)
        real = (fdatasync_fn)dlsym(RTLD_NEXT, "fdatasync");
    return fails("fdatasync") ? -1 : real(fd);
}

int ftruncate64(int fd, off64_t length) {
    static ftruncate64_fn real;
    if (!real)
        real = (ftruncate64_fn)dlsym(RTLD_NEXT, "ftruncate64");
    return fails("ftruncate64") ? -1 : real(fd, length);
}
