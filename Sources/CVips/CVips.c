// libvips opened at its first use: each function is called through its address in the library,
// looked up once, with its header's type. A worker that never meets a picture libvips must
// decode (PDFs, videos, baseline JPEGs) never loads libvips and its ~100 dependencies.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "CVips.h"
#include "LazyLibrary.h"
#include "VipsModules.h"

static void name_soname(LazyLibrary *library) {
    snprintf(library->soname[0], sizeof library->soname[0], "libvips.so.%d", VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
    library->files[0] = library->soname[0];
}

LazyLibrary cvips_library = {.label = "libvips", .prepare = name_soname};

#define VIPS(name) (*LAZY_FUNCTION(cvips_library, name))

const char *CVips_library_error(void) { return lazy_library_open(&cvips_library); }
const char *CVips_library_file(int index) { return lazy_library_file(&cvips_library, index); }

/// `call` (an int status, 0 on success), made again once libvips's modules are open if it failed
/// without them: a format only a module reads (HEIF, AVIF, JPEG XL, slides) fails until then.
#define STATUS_WITH_MODULES(call) ({ \
    int status_ = (call); \
    if (status_ != 0 && cvips_open_modules()) status_ = (call); \
    status_; })
/// The same for a call that answers a pointer, NULL on failure.
#define POINTER_WITH_MODULES(call) ({ \
    __typeof__(call) pointer_ = (call); \
    if (!pointer_ && cvips_open_modules()) pointer_ = (call); \
    pointer_; })

int CVips_start(const char *argv0) {
    if (cvips_init_without_modules(argv0) != 0) return -1;
    cvips_open_start_modules();
    VIPS(vips_operation_block_set)("VipsForeignLoadMagick", TRUE);
    VIPS(vips_operation_block_set)("VipsForeignLoadPdf", TRUE);     // PDFs go through poppler directly
    VIPS(vips_cache_set_max)(0);
    VIPS(vips_cache_set_max_mem)(0);
    VIPS(vips_concurrency_set)(getenv("VIPS_CONCURRENCY") ? atoi(getenv("VIPS_CONCURRENCY")) : 1);
    return 0;
}

int CVips_thumbnail(const char *filename, VipsImage **out, int width, int height) {
    return STATUS_WITH_MODULES(VIPS(vips_thumbnail)(filename, out, width, "height", height, "size", VIPS_SIZE_DOWN, NULL));
}

int CVips_thumbnail_buffer(const void *buf, size_t len, VipsImage **out, int width, int height, int autorotate) {
    return STATUS_WITH_MODULES(VIPS(vips_thumbnail_buffer)((void *)buf, len, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                                                           "no_rotate", autorotate ? FALSE : TRUE, NULL));
}

VipsImage *CVips_open_header(const char *filename) {
    return POINTER_WITH_MODULES(VIPS(vips_image_new_from_file)(filename, "access", VIPS_ACCESS_SEQUENTIAL, NULL));
}

int CVips_to_rgba8(VipsImage *in, VipsImage **out) {
    VipsImage *srgb = NULL, *alpha = NULL, *cast = NULL;
    VipsInterpretation target = VIPS_INTERPRETATION_sRGB;
    if (VIPS(vips_colourspace)(in, &srgb, target, NULL) != 0) return -1;
    if (!VIPS(vips_image_hasalpha)(srgb)) {
        if (VIPS(vips_addalpha)(srgb, &alpha, NULL) != 0) { g_object_unref(srgb); return -1; }
    } else {
        alpha = srgb; g_object_ref(alpha);
    }
    g_object_unref(srgb);
    // Keep exactly four bands (grey+alpha became sRGB+alpha above).
    VipsImage *four = NULL;
    if (alpha->Bands > 4) {
        if (VIPS(vips_extract_band)(alpha, &four, 0, "n", 4, NULL) != 0) { g_object_unref(alpha); return -1; }
    } else { four = alpha; g_object_ref(four); }
    g_object_unref(alpha);
    if (VIPS(vips_cast)(four, &cast, VIPS_FORMAT_UCHAR, "shift", four->BandFmt == VIPS_FORMAT_USHORT, NULL) != 0) {
        g_object_unref(four); return -1;
    }
    g_object_unref(four);
    *out = cast;
    return 0;
}

int CVips_rot(VipsImage *in, VipsImage **out, int quarterTurns) {
    VipsAngle a = quarterTurns == 1 ? VIPS_ANGLE_D90 : quarterTurns == 2 ? VIPS_ANGLE_D180 : quarterTurns == 3 ? VIPS_ANGLE_D270 : VIPS_ANGLE_D0;
    return VIPS(vips_rot)(in, out, a, NULL);
}

int CVips_flip_horizontal(VipsImage *in, VipsImage **out) {
    return VIPS(vips_flip)(in, out, VIPS_DIRECTION_HORIZONTAL, NULL);
}

int CVips_resize(VipsImage *in, VipsImage **out, double scale, double vscale) {
    return VIPS(vips_resize)(in, out, scale, "vscale", vscale, NULL);
}

const char *CVips_loader(const char *filename) {
    return POINTER_WITH_MODULES(VIPS(vips_foreign_find_load)(filename));
}

static void CVips_eval_cb(VipsImage *image, VipsProgress *progress, void *flag) {
    (void)progress;
    if (__atomic_load_n((volatile int *)flag, __ATOMIC_RELAXED)) VIPS(vips_image_set_kill)(image, TRUE);
}

void CVips_watch_cancel(VipsImage *image, volatile int *flag) {
    VIPS(vips_image_set_progress)(image, TRUE);
    g_signal_connect_data(image, "eval", G_CALLBACK(CVips_eval_cb), (void *)flag, NULL, 0);
}

void CVips_unref(void *object) { if (object) g_object_unref(object); }

const char *CVips_error_text(void) { return VIPS(vips_error_buffer)(); }

void CVips_error_clear(void) { VIPS(vips_error_clear)(); }

void CVips_flag_set(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }

const char *CVips_get_string(VipsImage *image, const char *name) {
    const char *out = NULL;
    if (VIPS(vips_image_get_typeof)(image, name) == 0) return NULL;
    if (VIPS(vips_image_get_string)(image, name, &out) != 0) { VIPS(vips_error_clear)(); return NULL; }
    return out;
}

int CVips_orientation(VipsImage *image) { return VIPS(vips_image_get_orientation)(image); }

int CVips_thumbnail_any_size(const char *filename, VipsImage **out, int width, int height) {
    return STATUS_WITH_MODULES(VIPS(vips_thumbnail)(filename, out, width, "height", height, NULL));
}

VipsImage *CVips_open(const char *filename) {
    return POINTER_WITH_MODULES(VIPS(vips_image_new_from_file)(filename, "access", VIPS_ACCESS_RANDOM, "fail_on", VIPS_FAIL_ON_ERROR, NULL));
}

int CVips_autorot(VipsImage *in, VipsImage **out) { return VIPS(vips_autorot)(in, out, NULL); }

int CVips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return VIPS(vips_extract_area)(in, out, left, top, width, height, NULL);
}

int CVips_write(VipsImage *image, const char *filename) { return STATUS_WITH_MODULES(VIPS(vips_image_write_to_file)(image, filename, NULL)); }

int CVips_width(VipsImage *image) { return VIPS(vips_image_get_width)(image); }
int CVips_height(VipsImage *image) { return VIPS(vips_image_get_height)(image); }
void *CVips_write_to_memory(VipsImage *image, size_t *size) { return VIPS(vips_image_write_to_memory)(image, size); }

// Markup on a picture: cairo's premultiplied BGRA (little-endian ARGB32) as straight RGBA over
// `base`. Pixels where the overlay is transparent keep their values; the result keeps base's
// bands (its alpha only if it had one), 8 bits, and base's metadata. -2: base is not 8-bit.
int CVips_composite_overlay(VipsImage *base, const unsigned char *bgra, int width, int height, int stride, VipsImage **out) {
    VipsImage *t[8] = {0};
    int status = -1;
    if (VIPS(vips_image_get_format)(base) != VIPS_FORMAT_UCHAR) return -2;
    size_t row = (size_t)width * 4;
    unsigned char *packed = g_malloc(row * (size_t)height);
    if (!packed) return -1;
    for (int y = 0; y < height; y++) memcpy(packed + row * (size_t)y, bgra + (size_t)stride * (size_t)y, row);
    t[0] = VIPS(vips_image_new_from_memory_copy)(packed, row * (size_t)height, width, height, 4, VIPS_FORMAT_UCHAR);
    g_free(packed);
    if (!t[0]) return -1;
    t[0]->Type = VIPS_INTERPRETATION_sRGB;
    int alpha = VIPS(vips_image_hasalpha)(base);
    if (VIPS(vips_extract_band)(t[0], &t[1], 2, NULL) || VIPS(vips_extract_band)(t[0], &t[2], 1, NULL) ||
        VIPS(vips_extract_band)(t[0], &t[3], 0, NULL) || VIPS(vips_extract_band)(t[0], &t[4], 3, NULL)) goto done;
    VipsImage *order[4] = {t[1], t[2], t[3], t[4]};
    if (VIPS(vips_bandjoin)(order, &t[5], 4, NULL)) goto done;
    t[5]->Type = VIPS_INTERPRETATION_sRGB;
    if (VIPS(vips_unpremultiply)(t[5], &t[6], NULL)) goto done;
    if (VIPS(vips_composite2)(base, t[6], &t[7], VIPS_BLEND_MODE_OVER, NULL)) goto done;
    // Grey pictures come back in colour (marks are coloured); the alpha band goes unless base had one.
    int composed = VIPS(vips_image_get_bands)(t[7]);
    int keep = alpha ? 4 : 3;
    if (keep > composed) keep = composed;
    VipsImage *banded = NULL;
    if (VIPS(vips_extract_band)(t[7], &banded, 0, "n", keep, NULL)) goto done;
    status = VIPS(vips_cast)(banded, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(banded);
done:
    for (int i = 0; i < 8; i++) if (t[i]) g_object_unref(t[i]);
    return status;
}
