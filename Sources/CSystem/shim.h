// Linux calls Swift cannot make directly (the mutable `environ` global, pipe2, a crash-safe terminal restore).
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
