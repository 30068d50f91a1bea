#pragma once
#include <libraw/libraw.h>
static inline int CRaw_flip(libraw_data_t *raw) { return raw->sizes.flip; }
static inline int CRaw_thumb_format(libraw_data_t *raw) { return raw->thumbnail.tformat; }
