// Non-variadic wrappers for the libvips operations qlbrowse uses.
// Swift cannot call C varargs functions, and VIPS_INIT is a macro.
#pragma once
#include <vips/vips.h>

/// Starts libvips once per process and blocks the ImageMagick loader, which would
/// otherwise accept (and misread) files vips does not know.
static inline int CVips_start(const char *argv0) {
    if (vips_init(argv0) != 0) return -1;
    vips_operation_block_set("VipsForeignLoadMagick", TRUE);
    vips_operation_block_set("VipsForeignLoadPdf", TRUE);     // PDFs go through poppler directly
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_concurrency_set(getenv("VIPS_CONCURRENCY") ? atoi(getenv("VIPS_CONCURRENCY")) : 1);
    return 0;
}

/// Shrink-on-load thumbnail of a file that fits width x height, EXIF orientation applied.
static inline int CVips_thumbnail(const char *filename, VipsImage **out, int width, int height) {
    return vips_thumbnail(filename, out, width, "height", height, "size", VIPS_SIZE_DOWN, NULL);
}

/// The same from bytes already in memory (an embedded preview, cover art, a zip entry).
static inline int CVips_thumbnail_buffer(const void *buf, size_t len, VipsImage **out, int width, int height, int autorotate) {
    return vips_thumbnail_buffer((void *)buf, len, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                                 "no_rotate", autorotate ? FALSE : TRUE, NULL);
}

/// Header-only open, for the image's own size (no pixel decoding).
static inline VipsImage *CVips_open_header(const char *filename) {
    return vips_image_new_from_file(filename, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

/// Converts any band layout and format to 8-bit sRGB RGBA.
static inline int CVips_to_rgba8(VipsImage *in, VipsImage **out) {
    VipsImage *srgb = NULL, *alpha = NULL, *cast = NULL;
    VipsInterpretation target = VIPS_INTERPRETATION_sRGB;
    if (vips_colourspace(in, &srgb, target, NULL) != 0) return -1;
    if (!vips_image_hasalpha(srgb)) {
        if (vips_addalpha(srgb, &alpha, NULL) != 0) { g_object_unref(srgb); return -1; }
    } else {
        alpha = srgb; g_object_ref(alpha);
    }
    g_object_unref(srgb);
    // Keep exactly four bands (grey+alpha became sRGB+alpha above).
    VipsImage *four = NULL;
    if (alpha->Bands > 4) {
        if (vips_extract_band(alpha, &four, 0, "n", 4, NULL) != 0) { g_object_unref(alpha); return -1; }
    } else { four = alpha; g_object_ref(four); }
    g_object_unref(alpha);
    if (vips_cast(four, &cast, VIPS_FORMAT_UCHAR, "shift", four->BandFmt == VIPS_FORMAT_USHORT, NULL) != 0) {
        g_object_unref(four); return -1;
    }
    g_object_unref(four);
    *out = cast;
    return 0;
}

static inline int CVips_rot(VipsImage *in, VipsImage **out, int quarterTurns) {
    VipsAngle a = quarterTurns == 1 ? VIPS_ANGLE_D90 : quarterTurns == 2 ? VIPS_ANGLE_D180 : quarterTurns == 3 ? VIPS_ANGLE_D270 : VIPS_ANGLE_D0;
    return vips_rot(in, out, a, NULL);
}

static inline int CVips_flip_horizontal(VipsImage *in, VipsImage **out) {
    return vips_flip(in, out, VIPS_DIRECTION_HORIZONTAL, NULL);
}

static inline int CVips_resize(VipsImage *in, VipsImage **out, double scale, double vscale) {
    return vips_resize(in, out, scale, "vscale", vscale, NULL);
}

static inline const char *CVips_loader(const char *filename) {
    return vips_foreign_find_load(filename);
}

static void CVips_eval_cb(VipsImage *image, VipsProgress *progress, void *flag) {
    (void)progress;
    if (__atomic_load_n((volatile int *)flag, __ATOMIC_RELAXED)) vips_image_set_kill(image, TRUE);
}

/// Makes evaluation of `image` stop as soon as `*flag` becomes non-zero.
static inline void CVips_watch_cancel(VipsImage *image, volatile int *flag) {
    vips_image_set_progress(image, TRUE);
    g_signal_connect_data(image, "eval", G_CALLBACK(CVips_eval_cb), (void *)flag, NULL, 0);
}

static inline void CVips_unref(void *object) { if (object) g_object_unref(object); }

static inline const char *CVips_error_text(void) { return vips_error_buffer(); }
static inline void CVips_error_clear(void) { vips_error_clear(); }

static inline void CVips_flag_set(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }

/// A text field of an image's metadata (EXIF tags as vips names them), or NULL.
static inline const char *CVips_get_string(VipsImage *image, const char *name) {
    const char *out = NULL;
    if (vips_image_get_typeof(image, name) == 0) return NULL;
    if (vips_image_get_string(image, name, &out) != 0) { vips_error_clear(); return NULL; }
    return out;
}
static inline int CVips_orientation(VipsImage *image) { return vips_image_get_orientation(image); }

/// The thumbnail with vips' default sizing (up or down): libvips 8.14's "size down" picks a far
/// too small JPEG 2000 resolution level, so callers clamp the box to the image and use this.
static inline int CVips_thumbnail_any_size(const char *filename, VipsImage **out, int width, int height) {
    return vips_thumbnail(filename, out, width, "height", height, NULL);
}


/// A whole picture opened for random access (edits turn it, so it cannot stream), failing on
/// any decoding error: an edit must never write a damaged picture's blank or partial decode
/// over the original.
static inline VipsImage *CVips_open(const char *filename) {
    return vips_image_new_from_file(filename, "access", VIPS_ACCESS_RANDOM, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

/// The picture turned upright by its EXIF orientation (the tag is then removed).
static inline int CVips_autorot(VipsImage *in, VipsImage **out) { return vips_autorot(in, out, NULL); }

/// Writes the picture; the saver and its options come from the name ("x.webp[lossless]").
static inline int CVips_write(VipsImage *image, const char *filename) { return vips_image_write_to_file(image, filename, NULL); }
