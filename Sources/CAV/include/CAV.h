// FFmpeg macros Swift cannot import, as functions. The libraries are opened at first use
// (LazyAV.c): no libav function is linked, each is forwarded.
#pragma once
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <string.h>

static inline int CAV_error_eagain(void) { return AVERROR(EAGAIN); }
static inline int CAV_error_eof(void) { return AVERROR_EOF; }
static inline int64_t CAV_nopts(void) { return AV_NOPTS_VALUE; }
static inline int CAV_time_base(void) { return AV_TIME_BASE; }
static inline void CAV_error_string(int code, char *buffer, size_t size) { av_strerror(code, buffer, size); }

/// Rotation in degrees (counter-clockwise, as FFmpeg reports it) from the stream's display matrix; 0 if none.
static inline double CAV_stream_rotation(AVStream *stream) {
    size_t size = 0;
    const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!matrix || size < 9 * sizeof(int32_t)) return 0;
    double r = av_display_rotation_get((const int32_t *)matrix);
    return r != r ? 0 : r; // NaN → 0
}

/// Whether the display matrix mirrors the picture horizontally.
static inline int CAV_stream_hflip(AVStream *stream) {
    size_t size = 0;
    const int32_t *m = (const int32_t *)av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!m || size < 9 * sizeof(int32_t)) return 0;
    return ((int64_t)m[0] * m[4] - (int64_t)m[1] * m[3]) < 0;
}

static inline uint8_t *CAV_frame_plane(AVFrame *frame, int index) { return frame->data[index]; }
static inline int CAV_frame_linesize(AVFrame *frame, int index) { return frame->linesize[index]; }
static inline int CAV_is_attached_pic(AVStream *stream) { return (stream->disposition & AV_DISPOSITION_ATTACHED_PIC) != 0; }

/// Converts `frame` to packed RGBA at width x height into `dst` (stride width*4).
static inline int CAV_scale_to_rgba(AVFrame *frame, uint8_t *dst, int width, int height) {
    struct SwsContext *sws = sws_getContext(frame->width, frame->height, frame->format,
                                            width, height, AV_PIX_FMT_RGBA, SWS_BICUBIC, NULL, NULL, NULL);
    if (!sws) return -1;
    uint8_t *planes[4] = { dst, NULL, NULL, NULL };
    int strides[4] = { width * 4, 0, 0, 0 };
    sws_scale(sws, (const uint8_t * const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
    sws_freeContext(sws);
    return 0;
}

/// One sample of channel `channel` at index `i` as a float in -1…1, for any packed or planar format.
static inline float CAV_sample(AVFrame *frame, int channel, int i) {
    int channels = frame->ch_layout.nb_channels;
    int fmt = frame->format;
    int planar = av_sample_fmt_is_planar(fmt);
    const uint8_t *base = planar ? frame->extended_data[channel] : frame->extended_data[0];
    int index = planar ? i : i * channels + channel;
    switch (av_get_packed_sample_fmt(fmt)) {
    case AV_SAMPLE_FMT_U8: return (((const uint8_t *)base)[index] - 128) / 128.0f;
    case AV_SAMPLE_FMT_S16: return ((const int16_t *)base)[index] / 32768.0f;
    case AV_SAMPLE_FMT_S32: return ((const int32_t *)base)[index] / 2147483648.0f;
    case AV_SAMPLE_FMT_S64: return (float)(((const int64_t *)base)[index] / 9223372036854775808.0);
    case AV_SAMPLE_FMT_FLT: return ((const float *)base)[index];
    case AV_SAMPLE_FMT_DBL: return (float)((const double *)base)[index];
    default: return 0;
    }
}
static inline int CAV_frame_channels(AVFrame *frame) { return frame->ch_layout.nb_channels; }
static inline void CAV_quiet(void) { av_log_set_level(AV_LOG_QUIET); }

/// Copies every side data of a stream (display matrix, spherical, …) to another.
static inline int CAV_copy_stream_side_data(AVStream *from, AVStream *to) {
    for (int i = 0; i < from->nb_side_data; i++) {
        uint8_t *data = av_stream_new_side_data(to, from->side_data[i].type, from->side_data[i].size);
        if (!data) return -1;
        memcpy(data, from->side_data[i].data, from->side_data[i].size);
    }
    return 0;
}

/// Sets a stream's display matrix to a rotation of `degrees` counterclockwise (libav's sense).
static inline int CAV_set_stream_rotation(AVStream *stream, double degrees) {
    size_t size = 0;
    uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!data || size < 9 * sizeof(int32_t)) data = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t));
    if (!data) return -1;
    av_display_rotation_set((int32_t *)data, degrees);
    return 0;
}

/// Copies the chapters that overlap [start, end) (microseconds; end < 0: all of them), moved so
/// that `start` is 0 and cut to the window, allocated as avformat_free_context frees them.
static inline int CAV_copy_chapters(AVFormatContext *from, AVFormatContext *to, int64_t start, int64_t end) {
    if (from->nb_chapters == 0) return 0;
    AVChapter **list = av_calloc(from->nb_chapters, sizeof(*list));
    if (!list) return -1;
    unsigned count = 0;
    for (unsigned i = 0; i < from->nb_chapters; i++) {
        AVChapter *source = from->chapters[i];
        int64_t first = av_rescale_q(source->start, source->time_base, AV_TIME_BASE_Q);
        int64_t last = av_rescale_q(source->end, source->time_base, AV_TIME_BASE_Q);
        if (end >= 0 && (last <= start || first >= end)) continue;
        AVChapter *chapter = av_mallocz(sizeof(*chapter));
        if (!chapter) break;
        chapter->id = source->id;
        chapter->time_base = AV_TIME_BASE_Q;
        chapter->start = (first > start ? first : start) - start;
        chapter->end = (end >= 0 && last > end ? end : last) - start;
        av_dict_copy(&chapter->metadata, source->metadata, 0);
        list[count++] = chapter;
    }
    to->chapters = list;
    to->nb_chapters = count;
    return 0;
}

static inline int CAV_packet_is_key(AVPacket *packet) { return (packet->flags & AV_PKT_FLAG_KEY) != 0; }
static inline AVRational CAV_microseconds(void) { return AV_TIME_BASE_Q; }

/// NULL when libav could be opened, else why not (opening it on the first call).
const char *CAV_library_error(void);
/// libav's `index`th file name (soname), or NULL past the last.
const char *CAV_library_file(int index);
