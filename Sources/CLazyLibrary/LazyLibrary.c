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
            // Lazy binding: libav and libvips bring ~170 libraries (encoders, network
            // protocols) whose functions a thumbnail never calls; resolving all of their calls
            // at once cost each fresh worker ~6 ms of symbol look-ups (issue #27). A function
            // missing from a library the worker calls is still said at once: the forwarders
            // look each one up with dlsym below.
            library->handles[i] = dlopen(library->files[i], RTLD_LAZY | RTLD_LOCAL);
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
