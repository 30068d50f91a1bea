#pragma once
#include <zlib.h>
/// inflateInit2 is a macro; raw deflate streams (zip entries) use windowBits -15.
static inline int CZlib_inflate_init_raw(z_stream *stream) { return inflateInit2(stream, -15); }
static inline int CZlib_deflate_init(z_stream *stream, int level) { return deflateInit(stream, level); }
