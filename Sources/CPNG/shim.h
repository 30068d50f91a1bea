#pragma once
// libpng, read row by row as 8-bit RGBA: PNG thumbnails without opening libvips (libpng is loaded
// with cairo in any case). libpng reports errors by longjmp, so each call that may fail sets its
// own jump point here, in C.
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct CPNG_reader {
    png_structp png;
    png_infop info;
    FILE *file;
    int width;
    int height;
    int interlaced;
    /// The eXIf chunk when it comes before the pixels (a TIFF structure), else NULL; owned by libpng.
    const unsigned char *exif;
    unsigned int exifLength;
} CPNG_reader;

static void CPNG_error(png_structp png, png_const_charp message) { (void)message; png_longjmp(png, 1); }
static void CPNG_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static inline void CPNG_close(CPNG_reader *reader) {
    if (!reader) return;
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    if (reader->file) fclose(reader->file);
    free(reader);
}

/// Opens a PNG and reads its header, with libpng set to give every row as 8-bit RGBA, straight
/// alpha (16-bit samples keep their high byte, as libvips casts them; grey, palettes and tRNS
/// expanded; no gamma applied, as libvips applies none). NULL when the file cannot be opened
/// (errno set) or is not a PNG libpng reads (errno 0).
static inline CPNG_reader *CPNG_open(const char *path) {
    CPNG_reader *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    reader->file = fopen(path, "rbe");
    if (!reader->file) { int saved = errno; free(reader); errno = saved; return NULL; }
    unsigned char signature[8];
    if (fread(signature, 1, 8, reader->file) != 8 || png_sig_cmp(signature, 0, 8) != 0) { CPNG_close(reader); errno = 0; return NULL; }
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, CPNG_error, CPNG_warning);
    if (reader->png) reader->info = png_create_info_struct(reader->png);
    if (!reader->png || !reader->info) { CPNG_close(reader); errno = 0; return NULL; }
    if (setjmp(png_jmpbuf(reader->png))) { CPNG_close(reader); errno = 0; return NULL; }
    png_init_io(reader->png, reader->file);
    png_set_sig_bytes(reader->png, 8);
    png_read_info(reader->png, reader->info);
    png_uint_32 width = 0, height = 0;
    int depth = 0, colour = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &depth, &colour, &interlace, NULL, NULL);
    png_bytep exif = NULL;
    png_uint_32 exifLength = 0;
    if (png_get_eXIf_1(reader->png, reader->info, &exifLength, &exif) && exif && exifLength > 0) {
        reader->exif = exif;
        reader->exifLength = exifLength;
    }
    if (depth == 16) png_set_strip_16(reader->png);
    if (colour == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(reader->png);
    if (colour == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(reader->png);
    if (png_get_valid(reader->png, reader->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(reader->png);
    if (colour == PNG_COLOR_TYPE_GRAY || colour == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(reader->png);
    if (!(colour & PNG_COLOR_MASK_ALPHA) && !png_get_valid(reader->png, reader->info, PNG_INFO_tRNS)) {
        png_set_add_alpha(reader->png, 0xFF, PNG_FILLER_AFTER);
    }
    reader->interlaced = interlace != PNG_INTERLACE_NONE;
    if (reader->interlaced) png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);
    if (png_get_rowbytes(reader->png, reader->info) != (size_t)width * 4) { CPNG_close(reader); errno = 0; return NULL; }
    reader->width = (int)width;
    reader->height = (int)height;
    return reader;
}

/// Reads the next `count` rows of a non-interlaced PNG into `rows` (stride width*4). 0, or -1
/// when libpng gave up (a cut or damaged file).
static inline int CPNG_read_rows(CPNG_reader *reader, unsigned char *rows, int count) {
    if (setjmp(png_jmpbuf(reader->png))) return -1;
    for (int row = 0; row < count; row++) png_read_row(reader->png, rows + (size_t)row * (size_t)reader->width * 4, NULL);
    return 0;
}

/// Reads a whole interlaced PNG into `pixels` (stride width*4): its passes fill every row in turn.
static inline int CPNG_read_image(CPNG_reader *reader, unsigned char *pixels) {
    png_bytep *rows = malloc(sizeof(png_bytep) * (size_t)reader->height);
    if (!rows) return -1;
    for (int row = 0; row < reader->height; row++) rows[row] = pixels + (size_t)row * (size_t)reader->width * 4;
    if (setjmp(png_jmpbuf(reader->png))) { free(rows); return -1; }
    png_read_image(reader->png, rows);
    free(rows);
    return 0;
}
