#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <setjmp.h>

/// Encodes packed RGB (stride width*3) to a JPEG in memory. Returns 0 on success; *out is malloc'ed.
static inline int CJPEG_encode_rgb(const unsigned char *rgb, int width, int height, int quality,
                                   unsigned char **out, unsigned long *outSize) {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    cinfo.err = jpeg_std_error(&jerr);
    jpeg_create_compress(&cinfo);
    *out = NULL; *outSize = 0;
    jpeg_mem_dest(&cinfo, out, outSize);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)cinfo.next_scanline * (size_t)width * 3);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return 0;
}

/// Why a scaled decode did not produce pixels.
enum {
    CJPEG_OK = 0,
    CJPEG_UNSUITED = 1,   // progressive, CMYK or another layout better left to libvips
    CJPEG_FAILED = 2,     // libjpeg gave up (libvips will say why)
    CJPEG_CANCELLED = 3,
    CJPEG_UNREADABLE = 4  // the file could not be opened: errno says why
};

struct CJPEG_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf escape;
};

static void CJPEG_error_exit(j_common_ptr info) {
    longjmp(((struct CJPEG_error_manager *)info->err)->escape, 1);
}

/// Warnings (corrupt or missing data) are not fatal: the decode goes on, as libvips lets it.
static void CJPEG_emit_message(j_common_ptr info, int level) { (void)info; (void)level; }

/// Decodes a baseline JPEG with DCT scaling (1/2, 1/4 or 1/8) to the smallest size that still
/// covers the image fitted into `boxWidth` x `boxHeight`, as RGBA rows (stride width*4,
/// malloc'ed into *out).
/// Only one MCU row is held besides the output, so memory follows the scaled size, never the
/// source size (and a scaled size over 16 megapixels is refused as unsuited). `cancel` is polled between rows. Returns one of the CJPEG_ codes.
/// Reads from `file` when it is not NULL (and closes it), else from `bytes` (`size` of them).
static inline int CJPEG_decode_scaled_from(FILE *file, const unsigned char *bytes, unsigned long size,
                                           int boxWidth, int boxHeight, const volatile int *cancel,
                                           unsigned char **out, int *width, int *height,
                                           int *sourceWidth, int *sourceHeight) {
    struct jpeg_decompress_struct info;
    struct CJPEG_error_manager manager;
    info.err = jpeg_std_error(&manager.base);
    manager.base.error_exit = CJPEG_error_exit;
    manager.base.emit_message = CJPEG_emit_message;
    unsigned char *volatile pixels = NULL;
    if (setjmp(manager.escape)) {
        jpeg_destroy_decompress(&info);
        if (file) fclose(file);
        free(pixels);
        return CJPEG_FAILED;
    }
    jpeg_create_decompress(&info);
    if (file) jpeg_stdio_src(&info, file); else jpeg_mem_src(&info, bytes, size);
    jpeg_read_header(&info, TRUE);
    *sourceWidth = (int)info.image_width; *sourceHeight = (int)info.image_height;
    int suited = !info.progressive_mode && !info.arith_code
        && ((info.num_components == 3 && (info.jpeg_color_space == JCS_YCbCr || info.jpeg_color_space == JCS_RGB))
            || (info.num_components == 1 && info.jpeg_color_space == JCS_GRAYSCALE));
    if (!suited) {
        jpeg_destroy_decompress(&info);
        if (file) fclose(file);
        return CJPEG_UNSUITED;
    }
    double fit = (double)boxWidth / info.image_width < (double)boxHeight / info.image_height
        ? (double)boxWidth / info.image_width : (double)boxHeight / info.image_height;
    unsigned int fittedWidth = (unsigned int)(info.image_width * fit + 0.5), fittedHeight = (unsigned int)(info.image_height * fit + 0.5);
    unsigned int denominator = 8;
    while (denominator > 1 && ((info.image_width + denominator - 1) / denominator < fittedWidth
                               || (info.image_height + denominator - 1) / denominator < fittedHeight)) {
        denominator /= 2;
    }
    info.scale_num = 1;
    info.scale_denom = denominator;
    info.out_color_space = JCS_EXT_RGBA;
    info.do_fancy_upsampling = FALSE;  // the picture is averaged down further anyway
    jpeg_calc_output_dimensions(&info);
    // A scaled picture this large (a 65000-pixel-wide JPEG) is left to libvips, which streams it.
    if ((size_t)info.output_width * info.output_height > ((size_t)16 << 20)) {
        jpeg_destroy_decompress(&info);
        if (file) fclose(file);
        return CJPEG_UNSUITED;
    }
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 4;
    pixels = malloc(stride * info.output_height);
    if (!pixels) {
        jpeg_destroy_decompress(&info);
        if (file) fclose(file);
        return CJPEG_FAILED;
    }
    while (info.output_scanline < info.output_height) {
        if (cancel && *cancel) {
            jpeg_destroy_decompress(&info);
            if (file) fclose(file);
            free(pixels);
            return CJPEG_CANCELLED;
        }
        JSAMPROW rows[8];
        for (int i = 0; i < 8; i++) rows[i] = pixels + (size_t)(info.output_scanline + (unsigned)i < info.output_height ? info.output_scanline + (unsigned)i : info.output_height - 1) * stride;
        jpeg_read_scanlines(&info, rows, 8);
    }
    *width = (int)info.output_width; *height = (int)info.output_height;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    if (file) fclose(file);
    *out = pixels;
    return CJPEG_OK;
}

static inline int CJPEG_decode_scaled(const char *path, int boxWidth, int boxHeight, const volatile int *cancel,
                                      unsigned char **out, int *width, int *height,
                                      int *sourceWidth, int *sourceHeight) {
    *out = NULL; *width = 0; *height = 0; *sourceWidth = 0; *sourceHeight = 0;
    FILE *file = fopen(path, "rbe");
    if (!file) return CJPEG_UNREADABLE;
    return CJPEG_decode_scaled_from(file, NULL, 0, boxWidth, boxHeight, cancel, out, width, height, sourceWidth, sourceHeight);
}

/// The same from a JPEG in memory (an embedded preview): never CJPEG_UNREADABLE.
static inline int CJPEG_decode_scaled_bytes(const unsigned char *bytes, unsigned long size, int boxWidth, int boxHeight,
                                            const volatile int *cancel, unsigned char **out, int *width, int *height,
                                            int *sourceWidth, int *sourceHeight) {
    *out = NULL; *width = 0; *height = 0; *sourceWidth = 0; *sourceHeight = 0;
    if (size == 0) return CJPEG_FAILED;
    return CJPEG_decode_scaled_from(NULL, bytes, size, boxWidth, boxHeight, cancel, out, width, height, sourceWidth, sourceHeight);
}
