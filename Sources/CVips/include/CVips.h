// Non-variadic wrappers for the libvips operations qlbrowse uses: Swift cannot call C varargs
// functions, and VIPS_INIT is a macro. libvips is opened at first use (CVips.c), so Swift calls
// only these, never a vips_ function (which would not link).
#pragma once
#include <vips/vips.h>

/// NULL when libvips could be opened, else why not (opening it on the first call).
const char *CVips_library_error(void);
/// libvips' `index`th file name (soname), or NULL past the last.
const char *CVips_library_file(int index);

/// Starts libvips once per process and blocks the ImageMagick loader, which would
/// otherwise accept (and misread) files vips does not know.
int CVips_start(const char *argv0);
/// Shrink-on-load thumbnail of a file that fits width x height, EXIF orientation applied.
int CVips_thumbnail(const char *filename, VipsImage **out, int width, int height);
/// The same from bytes already in memory (an embedded preview, cover art, a zip entry).
int CVips_thumbnail_buffer(const void *buf, size_t len, VipsImage **out, int width, int height, int autorotate);
/// Header-only open, for the image's own size (no pixel decoding).
VipsImage *CVips_open_header(const char *filename);
/// Converts any band layout and format to 8-bit sRGB RGBA.
int CVips_to_rgba8(VipsImage *in, VipsImage **out);
int CVips_rot(VipsImage *in, VipsImage **out, int quarterTurns);
int CVips_flip_horizontal(VipsImage *in, VipsImage **out);
int CVips_resize(VipsImage *in, VipsImage **out, double scale, double vscale);
const char *CVips_loader(const char *filename);
/// Makes evaluation of `image` stop as soon as `*flag` becomes non-zero.
void CVips_watch_cancel(VipsImage *image, volatile int *flag);
void CVips_unref(void *object);
const char *CVips_error_text(void);
void CVips_error_clear(void);
void CVips_flag_set(int *flag);
/// A text field of an image's metadata (EXIF tags as vips names them), or NULL.
const char *CVips_get_string(VipsImage *image, const char *name);
int CVips_orientation(VipsImage *image);
/// The thumbnail with vips' default sizing (up or down): libvips 8.14's "size down" picks a far
/// too small JPEG 2000 resolution level, so callers clamp the box to the image and use this.
int CVips_thumbnail_any_size(const char *filename, VipsImage **out, int width, int height);
/// A whole picture opened for random access (edits turn it, so it cannot stream), failing on
/// any decoding error: an edit must never write a damaged picture's blank or partial decode
/// over the original.
VipsImage *CVips_open(const char *filename);
/// The picture turned upright by its EXIF orientation (the tag is then removed).
int CVips_autorot(VipsImage *in, VipsImage **out);
/// The part of the picture `width` x `height` from (`left`, `top`), in its pixels (a crop).
int CVips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height);
/// Writes the picture; the saver and its options come from the name ("x.webp[lossless]").
int CVips_write(VipsImage *image, const char *filename);

/// The picture's size in pixels.
int CVips_width(VipsImage *image);
int CVips_height(VipsImage *image);

/// The picture's pixels, in memory allocated with g_malloc; NULL on failure.
void *CVips_write_to_memory(VipsImage *image, size_t *size);

/// Markup drawn by cairo (an ARGB32 surface's rows, `stride` bytes apart) laid over `base`, of
/// the same size: transparent parts change nothing. Keeps base's alpha only if it had one.
/// -2 when base is not 8 bits a sample.
int CVips_composite_overlay(VipsImage *base, const unsigned char *bgra, int width, int height, int stride, VipsImage **out);
