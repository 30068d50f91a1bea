// libraw opened at its first use (a camera RAW file): its functions qlbrowse calls are defined
// here under their own names, hidden, forwarding to the library's (see CLazyLibrary).
#include <stdio.h>
#pragma GCC visibility push(hidden)
#include "CRaw.h"
#include "LazyLibrary.h"

/// libtool's soname: libraw.so.(CURRENT - AGE).
static void name_soname(LazyLibrary *library) {
    snprintf(library->soname[0], sizeof library->soname[0], "libraw.so.%d", LIBRAW_SHLIB_CURRENT - LIBRAW_SHLIB_AGE);
    library->files[0] = library->soname[0];
}

static LazyLibrary libraw = {.label = "libraw", .prepare = name_soname};

const char *CRaw_library_error(void) { return lazy_library_open(&libraw); }
const char *CRaw_library_file(int index) { return lazy_library_file(&libraw, index); }

LAZY_FORWARD(libraw, libraw_data_t *, libraw_init, (unsigned int flags), (flags))
LAZY_FORWARD(libraw, int, libraw_open_file, (libraw_data_t *raw, const char *path), (raw, path))
LAZY_FORWARD(libraw, int, libraw_unpack_thumb, (libraw_data_t *raw), (raw))
LAZY_FORWARD(libraw, libraw_processed_image_t *, libraw_dcraw_make_mem_thumb, (libraw_data_t *raw, int *error), (raw, error))
LAZY_FORWARD(libraw, int, libraw_unpack, (libraw_data_t *raw), (raw))
LAZY_FORWARD(libraw, int, libraw_dcraw_process, (libraw_data_t *raw), (raw))
LAZY_FORWARD(libraw, libraw_processed_image_t *, libraw_dcraw_make_mem_image, (libraw_data_t *raw, int *error), (raw, error))
LAZY_FORWARD_VOID(libraw, libraw_dcraw_clear_mem, (libraw_processed_image_t *image), (image))
LAZY_FORWARD_VOID(libraw, libraw_close, (libraw_data_t *raw), (raw))
LAZY_FORWARD(libraw, const char *, libraw_strerror, (int code), (code))

#pragma GCC visibility pop
