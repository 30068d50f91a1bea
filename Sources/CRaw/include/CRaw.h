// libraw (camera RAW files), opened at first use (LazyRaw.c); macros Swift cannot import, as functions.
#pragma once
#include <libraw/libraw.h>
static inline int CRaw_flip(libraw_data_t *raw) { return raw->sizes.flip; }
static inline int CRaw_thumb_format(libraw_data_t *raw) { return raw->thumbnail.tformat; }
/// Develops at half size (one pixel per 2×2 Bayer block: no demosaicing), with the camera's white
/// balance, 8 bits a sample: the sensor data as a thumbnail when a file embeds no preview.
static inline void CRaw_develop_for_thumbnail(libraw_data_t *raw) {
    raw->params.half_size = 1;
    raw->params.use_camera_wb = 1;
    raw->params.output_bps = 8;
    raw->params.user_qual = 0;
}

/// NULL when libraw could be opened (it is opened at first use: LazyRaw.c), else why not.
const char *CRaw_library_error(void);
/// libraw's file name (soname) at `index`, or NULL past the last.
const char *CRaw_library_file(int index);
