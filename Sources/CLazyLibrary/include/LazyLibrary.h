// Opening a C library at its first use instead of at process start.
//
// The worker links ~180 libraries; libav and libvips bring 150 of them, and loading and relocating
// those cost each new worker ~28 ms before it could answer anything, a PDF or a JPEG that never
// needs them included. Their targets (CAV, CVips) call them through these instead of linking them.
#pragma once

#include <stddef.h>

/// A library opened on first use: `files` are its sonames, opened in order (the first's
/// dependencies come with it); `prepare`, if set, fills `files` first (a soname computed from
/// version macros).
typedef struct LazyLibrary {
    const char *label;
    const char *files[4];
    void (*prepare)(struct LazyLibrary *library);
    char soname[4][48];
    void *handles[4];
    int state;          // 0: not tried; 1: open; 2: failed (see error)
    char error[512];
} LazyLibrary;

/// Opens the library once (thread-safe); NULL when it is open, else why it could not be.
const char *lazy_library_open(LazyLibrary *library);

/// The library's `index`th file name (its soname), or NULL past the last; opens nothing.
const char *lazy_library_file(LazyLibrary *library, int index);

/// The address of `symbol` in the library, cached in `*slot`; opens the library if needed. A
/// library or symbol that cannot be had ends the process with the reason on standard error:
/// callers check `lazy_library_open` first where a missing library must be a clear error.
void *lazy_library_symbol(LazyLibrary *library, const char *symbol, void **slot);

/// The function `name` of `library`, looked up once, with the type of its declaration in scope.
#define LAZY_FUNCTION(library, name) \
    ({ static void *lazy_slot; (__typeof__(&name))lazy_library_symbol(&(library), #name, &lazy_slot); })

/// Defines `name` (declared by the library's header) as a forward to the library's own: calls to
/// it link here and open the library at the first one. Put the definitions between
/// `#pragma GCC visibility push(hidden)` and `pop`, so that no other library binds to them.
#define LAZY_FORWARD(library, type, name, parameters, arguments) \
    type name parameters { return LAZY_FUNCTION(library, name) arguments; }
#define LAZY_FORWARD_VOID(library, name, parameters, arguments) \
    void name parameters { LAZY_FUNCTION(library, name) arguments; }
