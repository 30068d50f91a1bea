// Linux calls Swift cannot make directly (variadic prctl, the mutable `environ` global).
#pragma once
#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>

extern char **environ;

/// The process environment, for posix_spawn.
static inline char **CSystem_environment(void) { return environ; }

/// Asks the kernel to send `signal` to this process when its parent dies.
static inline int CSystem_set_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0); }

#include <fcntl.h>
/// pipe2(O_CLOEXEC): both ends closed in children we spawn unless dup2'ed.
static inline int CSystem_pipe_cloexec(int fds[2]) {
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}
