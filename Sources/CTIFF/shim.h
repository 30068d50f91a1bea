#pragma once
// libtiff's RGBA interface, read band by band: TIFF thumbnails without opening libvips (libtiff is
// loaded with poppler in any case). Only the common layouts are taken; the rest (CMYK, which wants
// its ICC profile, floats, several pages, pyramids, slides) are left to libvips.
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <tiffio.h>

typedef struct CTIFF_reader {
    TIFF *tiff;
    TIFFRGBAImage image;
    int width;
    int height;
    /// The orientation tag (1…8); the rows come as stored, the caller turns the picture.
    int orientation;
    /// Rows read per call: a strip's or a tile's height, so that no strip is decoded twice.
    int bandRows;
    /// Whether the pixels carry alpha, premultiplied (libtiff premultiplies unassociated alpha).
    int premultiplied;
} CTIFF_reader;

/// libtiff's errors and warnings stay quiet (libtiff would print them): a file it cannot read is
/// left to libvips, which says why.
static int CTIFF_quiet(TIFF *tiff, void *user, const char *module, const char *format, va_list arguments) {
    (void)tiff; (void)user; (void)module; (void)format; (void)arguments;
    return 1;
}

static inline void CTIFF_close(CTIFF_reader *reader) {
    if (!reader) return;
    if (reader->image.tif) TIFFRGBAImageEnd(&reader->image);
    if (reader->tiff) TIFFClose(reader->tiff);
    free(reader);
}

/// Opens a TIFF whose first and only page libtiff's RGBA interface reads: 1–16-bit unsigned
/// samples, grey, RGB, palette or YCbCr, at most `maxPixels` pixels and 64 MB a band. NULL when
/// the file cannot be opened (errno set) or is one to leave to libvips (errno 0).
static inline CTIFF_reader *CTIFF_open(const char *path, long long maxPixels) {
    CTIFF_reader *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) { free(reader); return NULL; }
    TIFFOpenOptionsSetErrorHandlerExtR(options, CTIFF_quiet, NULL);
    TIFFOpenOptionsSetWarningHandlerExtR(options, CTIFF_quiet, NULL);
    errno = 0;
    // "m": read(), not a mapping, so that a file cut short on a vanishing volume is an error, not SIGBUS.
    reader->tiff = TIFFOpenExt(path, "rm", options);
    TIFFOpenOptionsFree(options);
    if (!reader->tiff) { int saved = errno; free(reader); errno = saved; return NULL; }
    errno = 0;
    TIFF *tiff = reader->tiff;
    uint32_t width = 0, height = 0;
    uint16_t photometric = 0, bits = 0, format = SAMPLEFORMAT_UINT, orientation = ORIENTATION_TOPLEFT;
    uint16_t subIFDCount = 0;
    void *subIFDs = NULL;
    char message[1024];
    int suited = TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width) && TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height)
        && width > 0 && height > 0 && (long long)width * height <= maxPixels
        && TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &photometric)
        && (photometric == PHOTOMETRIC_MINISWHITE || photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_RGB
            || photometric == PHOTOMETRIC_PALETTE || photometric == PHOTOMETRIC_YCBCR)
        && TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &bits) && (bits == 1 || bits == 2 || bits == 4 || bits == 8 || bits == 16)
        && TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLEFORMAT, &format) && (format == SAMPLEFORMAT_UINT || format == SAMPLEFORMAT_VOID)
        && !TIFFGetField(tiff, TIFFTAG_SUBIFD, &subIFDCount, &subIFDs)
        && TIFFNumberOfDirectories(tiff) == 1 && TIFFSetDirectory(tiff, 0)
        && TIFFRGBAImageOK(tiff, message);
    if (!suited) { CTIFF_close(reader); errno = 0; return NULL; }
    uint32_t bandRows = 0;
    if (TIFFIsTiled(tiff)) TIFFGetField(tiff, TIFFTAG_TILELENGTH, &bandRows);
    else TIFFGetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &bandRows);
    if (bandRows == 0 || bandRows > height) bandRows = height;
    if ((long long)bandRows * width * 4 > (64LL << 20)) { CTIFF_close(reader); errno = 0; return NULL; }
    if (!TIFFRGBAImageBegin(&reader->image, tiff, 1, message)) { reader->image.tif = NULL; CTIFF_close(reader); errno = 0; return NULL; }
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
    // Rows as stored, top first: the orientation is applied afterwards, to every case alike.
    reader->image.orientation = ORIENTATION_TOPLEFT;
    reader->image.req_orientation = ORIENTATION_TOPLEFT;
    reader->width = (int)width;
    reader->height = (int)height;
    reader->orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    reader->bandRows = (int)bandRows;
    reader->premultiplied = reader->image.alpha != 0;
    return reader;
}

/// Reads `count` rows from `row` into `pixels` as RGBA bytes (stride width*4; libtiff's packed
/// ABGR words are these bytes on a little-endian machine). 0, or -1 when libtiff gave up.
static inline int CTIFF_read_rows(CTIFF_reader *reader, int row, int count, unsigned char *pixels) {
    reader->image.row_offset = row;
    reader->image.col_offset = 0;
    return TIFFRGBAImageGet(&reader->image, (uint32_t *)(void *)pixels, (uint32_t)reader->width, (uint32_t)count) ? 0 : -1;
}
