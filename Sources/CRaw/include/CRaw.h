// libraw (camera RAW files), opened at first use (LazyRaw.c); macros Swift cannot import, as functions.
#pragma once
#include <libraw/libraw.h>
static inline int CRaw_flip(libraw_data_t *raw) { return raw->sizes.flip; }
static inline int CRaw_thumb_format(libraw_data_t *raw) { return raw->thumbnail.tformat; }

/// NULL when libraw could be opened (it is opened at first use: LazyRaw.c), else why not.
const char *CRaw_library_error(void);
/// libraw's file name (soname) at `index`, or NULL past the last.
const char *CRaw_library_file(int index);
