// libvips's modules (Debian: heif, jxl, openslide, magick, poppler), opened by qlbrowse rather than
// by vips_init. Loading them all made every worker's start cost ~90 M instructions more (libheif
// initialises libde265's tables, ImageMagick relocates ~20 libraries) for formats most folders
// never hold; magick and poppler are blocked in any case (CVips_start). openslide is opened with
// libvips: a slide (Aperio .svs, .ndpi…) is also a valid TIFF, so opening it only after a failure
// would have let tiffload read a slide in one worker and openslide in another. heif and jxl read
// only formats nothing else reads: they are opened the first time a call fails without them.
#define _GNU_SOURCE  // dladdr
#include <dirent.h>
#include <dlfcn.h>
#include <gmodule.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "CVips.h"
#include "LazyLibrary.h"
#include "VipsModules.h"

extern LazyLibrary cvips_library;
#define VIPS(name) (*LAZY_FUNCTION(cvips_library, name))

/// A prefix under which libvips finds no modules: vips_init loads them from $VIPSHOME/lib.
static const char *const modulelessPrefix = "/nonexistent";

int cvips_init_without_modules(const char *argv0) {
    // vips_init reads VIPSHOME (and sets it when unset); the caller's value, if any, is put back
    // afterwards, so that the programs this process starts see the environment it was given.
    // Threads: a worker may read its environment on another thread meanwhile. glibc's setenv of a
    // new name copies the environment into a new array the first time (a reader of the old one is
    // unharmed), and unsetenv shifts entries in place; libvips's own setenv of VIPSHOME, which
    // this replaces, ran on the same thread at the same moment.
    const char *given = getenv("VIPSHOME");
    char *kept = given ? strdup(given) : NULL;
    setenv("VIPSHOME", modulelessPrefix, 1);
    int status = VIPS(vips_init)(argv0);
    if (kept) {
        setenv("VIPSHOME", kept, 1);
        free(kept);
    } else {
        unsetenv("VIPSHOME");
    }
    return status;
}

static pthread_once_t modulesOnce = PTHREAD_ONCE_INIT;
static int modulesOpened;

/// Whether the module is one whose loaders are blocked anyway (not worth its libraries).
static int blocked(const char *name) {
    return strcmp(name, "vips-magick.so") == 0 || strcmp(name, "vips-poppler.so") == 0;
}

/// The module opened at the start, with libvips itself.
static const char *const openedAtStart = "vips-openslide.so";

/// The folder vips_init would have read: beside the libvips file in use, named after its version.
static int module_folder(char *folder, size_t size) {
    Dl_info info;
    if (!dladdr((void *)LAZY_FUNCTION(cvips_library, vips_init), &info) || !info.dli_fname) return 0;
    const char *slash = strrchr(info.dli_fname, '/');
    if (!slash) return 0;
    snprintf(folder, size, "%.*s/vips-modules-%d.%d", (int)(slash - info.dli_fname), info.dli_fname,
             VIPS(vips_version)(0), VIPS(vips_version)(1));
    return 1;
}

/// Opens one module of `folder`; as vips_load_plugins, the module registers its classes as it is
/// opened, and stays.
static int open_module(const char *folder, const char *name) {
    char path[4352];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    return VIPS(g_module_open)(path, G_MODULE_BIND_LAZY) != NULL;
}

void cvips_open_start_modules(void) {
    char folder[4096];
    if (module_folder(folder, sizeof folder) && open_module(folder, openedAtStart)) VIPS(vips_error_clear)();
}

static void open_modules(void) {
    char folder[4096];
    if (!module_folder(folder, sizeof folder)) return;
    DIR *directory = opendir(folder);
    if (!directory) return;
    struct dirent *entry;
    while ((entry = readdir(directory))) {
        size_t length = strlen(entry->d_name);
        if (length < 4 || strcmp(entry->d_name + length - 3, ".so") != 0 || blocked(entry->d_name)) continue;
        if (strcmp(entry->d_name, openedAtStart) == 0) continue;
        if (open_module(folder, entry->d_name)) modulesOpened++;
    }
    closedir(directory);
}

int cvips_open_modules(void) {
    static int done;
    if (__atomic_load_n(&done, __ATOMIC_ACQUIRE)) return 0;
    pthread_once(&modulesOnce, open_modules);
    __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    VIPS(vips_error_clear)();
    return modulesOpened > 0;
}
