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
    /// Whether the rows' colours come premultiplied by their alpha (`CTIFF_premultiplied`).
    int premultiplied;
} CTIFF_reader;

/// libtiff's errors and warnings stay quiet (libtiff would print them): a file it cannot read is
/// left to libvips, which says why.
static int CTIFF_quiet(TIFF *tiff, void *user, const char *module, const char *format, va_list arguments) {
    (void)tiff; (void)user; (void)module; (void)format; (void)arguments;
    return 1;
}

/// The most libtiff may allocate at once, and the most a band of RGBA rows may take.
static const tmsize_t CTIFF_largestBuffer = (tmsize_t)64 << 20;

/// Whether libtiff's RGBA rows carry premultiplied colours, from the extra samples the file
/// declares: 1 or 0, -1 for a layout whose alpha libtiff's RGBA interface drops or misreads
/// (left to libvips). libtiff premultiplies unassociated alpha on RGB and passes associated alpha
/// through; it passes 8-bit grey's alpha through either way, drops 16-bit grey's, and takes an
/// unspecified fourth sample for associated alpha when it is not (libvips: straight).
static inline int CTIFF_premultiplied(TIFF *tiff, uint16_t photometric, uint16_t bits) {
    uint16_t count = 0;
    uint16_t *kinds = NULL;
    uint16_t samples = 1;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    if (!TIFFGetField(tiff, TIFFTAG_EXTRASAMPLES, &count, &kinds) || count == 0 || !kinds) return 0;
    if (photometric == PHOTOMETRIC_RGB && (bits == 8 || bits == 16) && samples >= 4) {
        return kinds[0] == EXTRASAMPLE_UNSPECIFIED ? 0 : 1;
    }
    if ((photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE) && bits == 8 && samples == 2) {
        if (kinds[0] == EXTRASAMPLE_ASSOCALPHA) return 1;
        if (kinds[0] == EXTRASAMPLE_UNASSALPHA) return 0;
    }
    return -1;
}

static inline void CTIFF_close(CTIFF_reader *reader) {
    if (!reader) return;
    if (reader->image.tif) TIFFRGBAImageEnd(&reader->image);
    if (reader->tiff) TIFFClose(reader->tiff);
    free(reader);
}

/// Opens a TIFF whose first and only page libtiff's RGBA interface reads: 1–16-bit unsigned
/// samples, grey, RGB, palette or YCbCr, alpha it reads right, at most `maxPixels` pixels, 64 MB a
/// strip or tile, and 64 MB a band. NULL when
/// the file cannot be opened (errno set) or is one to leave to libvips (errno 0).
static inline CTIFF_reader *CTIFF_open(const char *path, long long maxPixels) {
    CTIFF_reader *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) { free(reader); return NULL; }
    // libtiff's own strip and tile buffers follow what the header declares, not the file's size:
    // a 500 KB file declaring 8-million-pixel-wide tiles had it allocate 430 MB.
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, CTIFF_largestBuffer);
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
    int premultiplied = suited ? CTIFF_premultiplied(tiff, photometric, bits) : -1;
    tmsize_t buffer = TIFFIsTiled(tiff) ? TIFFTileSize(tiff) : TIFFStripSize(tiff);
    if (!suited || premultiplied < 0 || buffer <= 0 || buffer > CTIFF_largestBuffer) { CTIFF_close(reader); errno = 0; return NULL; }
    uint32_t bandRows = 0;
    if (TIFFIsTiled(tiff)) TIFFGetField(tiff, TIFFTAG_TILELENGTH, &bandRows);
    else TIFFGetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &bandRows);
    if (bandRows == 0 || bandRows > height) bandRows = height;
    if ((long long)bandRows * width * 4 > CTIFF_largestBuffer) { CTIFF_close(reader); errno = 0; return NULL; }
    if (!TIFFRGBAImageBegin(&reader->image, tiff, 1, message)) { reader->image.tif = NULL; CTIFF_close(reader); errno = 0; return NULL; }
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
    // Rows as stored, top first: the orientation is applied afterwards, to every case alike.
    reader->image.orientation = ORIENTATION_TOPLEFT;
    reader->image.req_orientation = ORIENTATION_TOPLEFT;
    reader->width = (int)width;
    reader->height = (int)height;
    reader->orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    reader->bandRows = (int)bandRows;
    reader->premultiplied = premultiplied;
    return reader;
}

/// Reads `count` rows from `row` into `pixels` as RGBA bytes (stride width*4; libtiff's packed
/// ABGR words are these bytes on a little-endian machine). 0, or -1 when libtiff gave up.
static inline int CTIFF_read_rows(CTIFF_reader *reader, int row, int count, unsigned char *pixels) {
    reader->image.row_offset = row;
    reader->image.col_offset = 0;
    return TIFFRGBAImageGet(&reader->image, (uint32_t *)(void *)pixels, (uint32_t)reader->width, (uint32_t)count) ? 0 : -1;
}
