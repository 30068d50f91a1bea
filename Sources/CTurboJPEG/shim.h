// libjpeg-turbo's TurboJPEG API: lossless transforms (rotate, flip) in the DCT domain.
#pragma once
#include <stddef.h>
#include <turbojpeg.h>

/// Transforms one JPEG held in memory; `operation` is a TJXOP_* value. With `perfect` the call
/// fails where partial edge blocks would stay untransformed; with `trim` they are dropped.
/// Markers (EXIF, XMP, ICC) are copied. The output is freed with tjFree.
static inline int CTurboJPEG_transform(const unsigned char *jpeg, unsigned long size, int operation, int perfect, int trim,
                                       unsigned char **out, unsigned long *outSize) {
    tjhandle handle = tjInitTransform();
    if (!handle) return -1;
    tjtransform transform = {0};
    transform.op = operation;
    transform.options = (perfect ? TJXOPT_PERFECT : 0) | (trim ? TJXOPT_TRIM : 0);
    *out = NULL;
    *outSize = 0;
    int status = tjTransform(handle, jpeg, size, 1, out, outSize, &transform, 0);
    tjDestroy(handle);
    return status;
}

/// Crops one JPEG held in memory in the DCT domain (no decoding): the region's left and top
/// must lie on the iMCU grid (the caller snaps them); the right and bottom may fall anywhere.
/// Markers (EXIF, XMP, ICC) are copied. The output is freed with tjFree.
static inline int CTurboJPEG_crop(const unsigned char *jpeg, unsigned long size, int x, int y, int width, int height,
                                  unsigned char **out, unsigned long *outSize) {
    tjhandle handle = tjInitTransform();
    if (!handle) return -1;
    tjtransform transform = {0};
    transform.op = TJXOP_NONE;
    transform.options = TJXOPT_CROP;
    transform.r.x = x;
    transform.r.y = y;
    transform.r.w = width;
    transform.r.h = height;
    *out = NULL;
    *outSize = 0;
    int status = tjTransform(handle, jpeg, size, 1, out, outSize, &transform, 0);
    tjDestroy(handle);
    return status;
}

/// Width, height and chroma subsampling of a JPEG (the MCU size follows from the subsampling).
static inline int CTurboJPEG_header(const unsigned char *jpeg, unsigned long size, int *width, int *height, int *subsampling) {
    tjhandle handle = tjInitDecompress();
    if (!handle) return -1;
    int colorspace = 0;
    int status = tjDecompressHeader3(handle, jpeg, size, width, height, subsampling, &colorspace);
    tjDestroy(handle);
    return status;
}

static inline int CTurboJPEG_mcu_width(int subsampling) { return subsampling >= 0 && subsampling < TJ_NUMSAMP ? tjMCUWidth[subsampling] : 8; }
static inline int CTurboJPEG_mcu_height(int subsampling) { return subsampling >= 0 && subsampling < TJ_NUMSAMP ? tjMCUHeight[subsampling] : 8; }
static inline const char *CTurboJPEG_error(void) { return tjGetErrorStr2(NULL); }
