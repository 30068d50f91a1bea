#define _GNU_SOURCE
#include "LazyLibrary.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t opening = PTHREAD_MUTEX_INITIALIZER;

/// Lets the library name its files (once); called with `opening` held.
static void prepare(LazyLibrary *library) {
    if (library->prepare && !library->files[0]) library->prepare(library);
}

const char *lazy_library_file(LazyLibrary *library, int index) {
    if (index < 0 || index >= 4) return NULL;
    pthread_mutex_lock(&opening);
    prepare(library);
    const char *file = library->files[index];
    pthread_mutex_unlock(&opening);
    return file;
}

const char *lazy_library_open(LazyLibrary *library) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == 1) return NULL;
    if (state == 2) return library->error;
    pthread_mutex_lock(&opening);
    if (library->state == 0) {
        prepare(library);
        int opened = 1;
        for (int i = 0; i < 4 && library->files[i]; i++) {
            // RTLD_NOW, not RTLD_LAZY: a library whose dependency lacks a function (a partial
            // upgrade) fails here, as a clear error for the feature, instead of killing the
            // process at the first call. Lazy binding saved ~3 % of a worker's CPU (issue #27).
            library->handles[i] = dlopen(library->files[i], RTLD_NOW | RTLD_LOCAL);
            if (!library->handles[i]) {
                const char *why = dlerror();
                snprintf(library->error, sizeof library->error, "%s could not be loaded: %s",
                         library->label, why ? why : library->files[i]);
                opened = 0;
                for (int j = 0; j < i; j++) dlclose(library->handles[j]);
                break;
            }
        }
        __atomic_store_n(&library->state, opened ? 1 : 2, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&opening);
    return library->state == 1 ? NULL : library->error;
}

void *lazy_library_symbol(LazyLibrary *library, const char *symbol, void **slot) {
    void *address = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (address) return address;
    const char *why = lazy_library_open(library);
    if (why) {
        fprintf(stderr, "%s: %s\n", program_invocation_short_name, why);
        abort();
    }
    for (int i = 0; i < 4 && library->files[i] && !address; i++) address = dlsym(library->handles[i], symbol);
    if (!address) {
        fprintf(stderr, "%s: %s has no %s (an older version than this build needs?)\n", program_invocation_short_name,
                library->label, symbol);
        abort();
    }
    __atomic_store_n(slot, address, __ATOMIC_RELEASE);
    return address;
}
