/* A preloaded library for the tests: the operating system's randomness source fails, as on a
 * system without getrandom(2) and without /dev/urandom (a chroot, an early-boot initramfs), for
 * the 32-byte requests that seed a CSPRNG. Smaller ones (hash-table keys: the Rust standard
 * library's, which Python's and Node's start-up and PyO3 need) still succeed, so that the
 * interpreters start and the library's own seeding is what meets the failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

ssize_t getrandom(void *buf, size_t len, unsigned int flags) {
    if (len != 32) return syscall(SYS_getrandom, buf, len, flags);
    errno = ENOSYS;
    return -1;
}

static int is_random_device(const char *path) {
    return strcmp(path, "/dev/urandom") == 0 || strcmp(path, "/dev/random") == 0;
}

/* Every open of a random device fails; any other path is opened by the system call itself. */
static int open_at(int dirfd, const char *path, int flags, va_list ap) {
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
    if (is_random_device(path)) {
        errno = ENOENT;
        return -1;
    }
    return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}

#define OPEN(name)                                                                        \
    int name(const char *path, int flags, ...) {                                         \
        va_list ap;                                                                       \
        va_start(ap, flags);                                                              \
        int fd = open_at(AT_FDCWD, path, flags, ap);                                      \
        va_end(ap);                                                                       \
        return fd;                                                                        \
    }
#define OPEN_AT(name)                                                                     \
    int name(int dirfd, const char *path, int flags, ...) {                              \
        va_list ap;                                                                       \
        va_start(ap, flags);                                                              \
        int fd = open_at(dirfd, path, flags, ap);                                         \
        va_end(ap);                                                                       \
        return fd;                                                                        \
    }
OPEN(open)
OPEN(open64)
OPEN_AT(openat)
OPEN_AT(openat64)
