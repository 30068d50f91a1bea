// Linux calls Swift cannot make directly (the mutable `environ` global, pipe2, a crash-safe terminal restore,
// Unix sockets and their peer's credentials, spawning into a session of its own).
// Imported only by SystemKit, Providers and the graphics drivers: the rest of the program uses SystemKit's Swift wrappers.
#pragma once
#include <signal.h>
#include <unistd.h>

extern char **environ;

/// The process environment, for posix_spawn.
static inline char **CSystem_environment(void) { return environ; }


#include <fcntl.h>
/// pipe2(2) (declared by glibc only under _GNU_SOURCE): both ends get `flags` (O_CLOEXEC, O_NONBLOCK)
/// atomically, so no child spawned meanwhile by another thread inherits them.
extern int pipe2(int fds[2], int flags);
static inline int CSystem_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

#include <termios.h>
#include <string.h>
#include <stdlib.h>
/// The terminal as it was before the browser took it, restored on a crash signal.
static inline __attribute__((always_inline)) struct termios *CSystem_saved_terminal(void) { static struct termios saved; return &saved; }
static inline __attribute__((always_inline)) int *CSystem_saved_terminal_valid(void) { static int valid = 0; return &valid; }

static void CSystem_restore_and_reraise(int signal) {
    static const char reset[] = "\033[?1000l\033[?1002l\033[?1006l\033[0m\033[?25h\033[?1049l\r\n";
    if (*CSystem_saved_terminal_valid()) tcsetattr(0, TCSANOW, CSystem_saved_terminal());
    ssize_t ignored = write(1, reset, sizeof reset - 1);
    (void)ignored;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigaction(signal, &action, NULL);
    raise(signal);
}

/// Saves the terminal settings and installs handlers that restore them if the program crashes.
static inline void CSystem_guard_terminal(void) {
    if (tcgetattr(0, CSystem_saved_terminal()) == 0) *CSystem_saved_terminal_valid() = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = CSystem_restore_and_reraise;
    int signals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGQUIT };
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaction(signals[i], &action, NULL);
}

#include <spawn.h>
/// posix_spawn_file_actions_addchdir_np (glibc 2.29+), which Swift's Glibc module does not expose:
/// the spawned child starts in `path`.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
static inline int CSystem_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

#include <malloc.h>
/// Caps glibc's per-thread malloc arenas (each reserves 64 MiB of address space).
static inline int CSystem_limit_malloc_arenas(int count) { return mallopt(M_ARENA_MAX, count); }
/// Fixes the size from which glibc maps a block of its own (and unmaps it when freed), which
/// otherwise rises to the largest block freed so far.
static inline int CSystem_set_malloc_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

#include <sys/syscall.h>
#include <sys/xattr.h>
#include <stdio.h>
/// renameat2(RENAME_NOREPLACE) by system call (glibc only declares it under _GNU_SOURCE):
/// a rename that fails with EEXIST instead of replacing what appeared at the destination.
static inline int CSystem_rename_noreplace(const char *from, const char *to) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1 /* RENAME_NOREPLACE */);
}

/// copy_file_range from the current offsets (reflinks, server-side copies where the filesystem can).
static inline long CSystem_copy_file_range(int in, int out, unsigned long length) {
    return (long)syscall(SYS_copy_file_range, in, (void *)0, out, (void *)0, length, 0u);
}

/// mkostemps(3) (declared by glibc only under _GNU_SOURCE): a unique temporary file, opened with
/// `flags` (O_CLOEXEC) from the start.
extern int mkostemps(char *template, int suffixlen, int flags);
static inline int CSystem_mkostemps(char *template, int suffixlen, int flags) { return mkostemps(template, suffixlen, flags); }

#include <sys/socket.h>
#include <sys/un.h>
#include <sys/file.h>
#include <errno.h>
#ifndef SO_PEERCRED
#define SO_PEERCRED 17
#endif
/// A Unix stream socket, close-on-exec from the start.
static inline int CSystem_unix_socket(void) { return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0); }

/// Two connected Unix stream sockets, close-on-exec from the start.
static inline int CSystem_unix_socket_pair(int fds[2]) { return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds); }

/// Fills `address` with `path`; -1 with ENAMETOOLONG when the path does not fit (107 bytes).
static inline int CSystem_unix_address(struct sockaddr_un *address, const char *path) {
    size_t length = strlen(path);
    if (length >= sizeof address->sun_path) { errno = ENAMETOOLONG; return -1; }
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    memcpy(address->sun_path, path, length + 1);
    return 0;
}

/// bind(2) of a Unix socket to `path` (the file must not exist).
static inline int CSystem_unix_bind(int fd, const char *path) {
    struct sockaddr_un address;
    if (CSystem_unix_address(&address, path) != 0) return -1;
    return bind(fd, (struct sockaddr *)&address, sizeof address);
}

/// connect(2) of a Unix socket to `path`.
static inline int CSystem_unix_connect(int fd, const char *path) {
    struct sockaddr_un address;
    if (CSystem_unix_address(&address, path) != 0) return -1;
    return connect(fd, (struct sockaddr *)&address, sizeof address);
}

/// accept4(2) with SOCK_CLOEXEC (declared by glibc only under _GNU_SOURCE).
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
static inline int CSystem_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC); }

/// The process at the other end of a connected Unix socket, as the kernel saw it connect
/// (SO_PEERCRED; `struct ucred` is declared by glibc only under _GNU_SOURCE, so the same layout here).
struct CSystem_peer { int pid; unsigned int uid; unsigned int gid; };
static inline int CSystem_peer_credentials(int fd, struct CSystem_peer *peer) {
    socklen_t length = sizeof *peer;
    return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, peer, &length);
}

/// send(2) that never raises SIGPIPE on a closed connection (EPIPE instead).
static inline long CSystem_send(int fd, const void *bytes, unsigned long length) {
    return (long)send(fd, bytes, length, MSG_NOSIGNAL);
}

/// POSIX_SPAWN_SETSID (glibc 2.26+, declared only under _GNU_SOURCE): the child starts a session
/// of its own, outside the caller's process group and terminal.
static inline short CSystem_spawn_setsid_flag(void) { return 0x80; }

/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34+): the child closes every descriptor from `from` up.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
static inline int CSystem_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

// stat(2) and statvfs(3) by path: Swift sees the struct names first and cannot name the calls.
#include <sys/stat.h>
#include <sys/statvfs.h>
static inline int CSystem_stat(const char *path, struct stat *info) { return stat(path, info); }
static inline int CSystem_statvfs(const char *path, struct statvfs *info) { return statvfs(path, info); }

#include <linux/openat2.h>
/// openat2(2) by system call (glibc has no wrapper): `path` resolved beneath the folder `folder`
/// only (RESOLVE_BENEATH: no `..` or absolute path out of it) and through no symbolic link at all
/// (RESOLVE_NO_SYMLINKS), for reading what other users may have planted in a shared folder.
/// -1 with ENOSYS on kernels before 5.6 (the caller falls back to a walk with O_NOFOLLOW).
static inline int CSystem_openat_beneath(int folder, const char *path, int flags) {
#ifdef SYS_openat2
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)(unsigned)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, folder, path, &how, sizeof how);
#else
    (void)folder; (void)path; (void)flags;
    errno = ENOSYS;
    return -1;
#endif
}
