#pragma once
// libwebp's decoder with its own scaling: still WebP thumbnails without opening libvips (libwebp
// is loaded with libtiff in any case). Animations are left to libvips.
#include <stddef.h>
#include <stdint.h>
#include <webp/decode.h>

/// The stored size of a WebP and whether it is animated. 0, or -1 when libwebp cannot read it.
static inline int CWebP_features(const uint8_t *data, size_t size, int *width, int *height, int *animated) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) return -1;
    *width = features.width;
    *height = features.height;
    *animated = features.has_animation;
    return 0;
}

/// Decodes a still WebP straight to `width` x `height` (libwebp's area-averaging rescaler when that
/// is smaller than the picture) as RGBA, straight alpha, into `pixels` (stride width*4).
/// 0, or -1 when libwebp gave up.
static inline int CWebP_decode_scaled(const uint8_t *data, size_t size, int width, int height, int scales,
                                      uint8_t *pixels, size_t pixelsSize) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return -1;
    config.options.use_scaling = scales;
    config.options.scaled_width = width;
    config.options.scaled_height = height;
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = pixels;
    config.output.u.RGBA.stride = width * 4;
    config.output.u.RGBA.size = pixelsSize;
    int status = WebPDecode(data, size, &config) == VP8_STATUS_OK ? 0 : -1;
    WebPFreeDecBuffer(&config.output);
    return status;
}
