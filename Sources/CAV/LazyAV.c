// libav opened at its first use: every libav function qlbrowse calls is defined here, with its
// header's type (the compiler checks each against the declaration), hidden from other libraries,
// and forwards to the function of that name in the library, looked up once. A worker that never
// meets a video, a sound or a Motion Photo never loads libav and its ~130 dependencies.
#include <stdio.h>
#pragma GCC visibility push(hidden)
#include "CAV.h"
#include "LazyLibrary.h"

#define SONAME(base, major) base ".so." AV_STRINGIFY(major)

static LazyLibrary libav = {
    .label = "libav",
    .files = {SONAME("libavformat", LIBAVFORMAT_VERSION_MAJOR), SONAME("libavcodec", LIBAVCODEC_VERSION_MAJOR),
              SONAME("libswscale", LIBSWSCALE_VERSION_MAJOR), SONAME("libavutil", LIBAVUTIL_VERSION_MAJOR)},
};

const char *CAV_library_error(void) { return lazy_library_open(&libav); }
const char *CAV_library_file(int index) { return lazy_library_file(&libav, index); }

#define FORWARD(type, name, parameters, arguments) LAZY_FORWARD(libav, type, name, parameters, arguments)
#define FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(libav, name, parameters, arguments)

FORWARD(void *, av_calloc, (size_t count, size_t size), (count, size))
FORWARD(void *, av_mallocz, (size_t size), (size))
FORWARD(int, av_dict_copy, (AVDictionary **to, const AVDictionary *from, int flags), (to, from, flags))
FORWARD_VOID(av_dict_free, (AVDictionary **dictionary), (dictionary))
FORWARD(AVDictionaryEntry *, av_dict_get, (const AVDictionary *dictionary, const char *key, const AVDictionaryEntry *previous, int flags),
        (dictionary, key, previous, flags))
FORWARD(int, av_dict_set, (AVDictionary **dictionary, const char *key, const char *value, int flags), (dictionary, key, value, flags))
FORWARD(double, av_display_rotation_get, (const int32_t matrix[9]), (matrix))
FORWARD_VOID(av_display_rotation_set, (int32_t matrix[9], double angle), (matrix, angle))
FORWARD(AVFrame *, av_frame_alloc, (void), ())
FORWARD_VOID(av_frame_free, (AVFrame **frame), (frame))
FORWARD_VOID(av_frame_move_ref, (AVFrame *to, AVFrame *from), (to, from))
FORWARD_VOID(av_frame_unref, (AVFrame *frame), (frame))
FORWARD(enum AVSampleFormat, av_get_packed_sample_fmt, (enum AVSampleFormat format), (format))
FORWARD(int, av_sample_fmt_is_planar, (enum AVSampleFormat format), (format))
FORWARD_VOID(av_log_set_level, (int level), (level))
FORWARD(AVPacket *, av_packet_alloc, (void), ())
FORWARD(AVPacket *, av_packet_clone, (const AVPacket *packet), (packet))
FORWARD_VOID(av_packet_free, (AVPacket **packet), (packet))
FORWARD_VOID(av_packet_rescale_ts, (AVPacket *packet, AVRational from, AVRational to), (packet, from, to))
FORWARD_VOID(av_packet_unref, (AVPacket *packet), (packet))
FORWARD(int64_t, av_rescale_q, (int64_t value, AVRational from, AVRational to), (value, from, to))
FORWARD(int, av_strerror, (int code, char *buffer, size_t size), (code, buffer, size))
FORWARD(uint8_t *, av_stream_get_side_data, (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), (stream, type, size))
FORWARD(uint8_t *, av_stream_new_side_data, (AVStream *stream, enum AVPacketSideDataType type, size_t size), (stream, type, size))

FORWARD(int, avformat_open_input, (AVFormatContext **context, const char *url, const AVInputFormat *format, AVDictionary **options),
        (context, url, format, options))
FORWARD(int, avformat_find_stream_info, (AVFormatContext *context, AVDictionary **options), (context, options))
FORWARD_VOID(avformat_close_input, (AVFormatContext **context), (context))
FORWARD(int, avformat_alloc_output_context2, (AVFormatContext **context, const AVOutputFormat *format, const char *formatName, const char *fileName),
        (context, format, formatName, fileName))
FORWARD_VOID(avformat_free_context, (AVFormatContext *context), (context))
FORWARD(AVStream *, avformat_new_stream, (AVFormatContext *context, const AVCodec *codec), (context, codec))
FORWARD(int, avformat_write_header, (AVFormatContext *context, AVDictionary **options), (context, options))
FORWARD(int, av_read_frame, (AVFormatContext *context, AVPacket *packet), (context, packet))
FORWARD(int, av_index_search_timestamp, (AVStream *stream, int64_t timestamp, int flags), (stream, timestamp, flags))
FORWARD(const AVIndexEntry *, avformat_index_get_entry, (AVStream *stream, int index), (stream, index))
FORWARD(int, av_seek_frame, (AVFormatContext *context, int stream, int64_t timestamp, int flags), (context, stream, timestamp, flags))
FORWARD(int, av_interleaved_write_frame, (AVFormatContext *context, AVPacket *packet), (context, packet))
FORWARD(int, av_write_trailer, (AVFormatContext *context), (context))
FORWARD(int, avio_open, (AVIOContext **io, const char *url, int flags), (io, url, flags))
FORWARD_VOID(avio_flush, (AVIOContext *io), (io))
FORWARD(int, avio_closep, (AVIOContext **io), (io))

FORWARD(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))
FORWARD_VOID(avcodec_free_context, (AVCodecContext **context), (context))
FORWARD(const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))
FORWARD(const char *, avcodec_get_name, (enum AVCodecID id), (id))
FORWARD(int, avcodec_open2, (AVCodecContext *context, const AVCodec *codec, AVDictionary **options), (context, codec, options))
FORWARD(int, avcodec_parameters_copy, (AVCodecParameters *to, const AVCodecParameters *from), (to, from))
FORWARD(int, avcodec_parameters_to_context, (AVCodecContext *context, const AVCodecParameters *parameters), (context, parameters))
FORWARD(int, avcodec_send_packet, (AVCodecContext *context, const AVPacket *packet), (context, packet))
FORWARD(int, avcodec_receive_frame, (AVCodecContext *context, AVFrame *frame), (context, frame))
FORWARD_VOID(avcodec_flush_buffers, (AVCodecContext *context), (context))

FORWARD(struct SwsContext *, sws_getContext,
        (int sourceWidth, int sourceHeight, enum AVPixelFormat sourceFormat, int width, int height, enum AVPixelFormat format,
         int flags, SwsFilter *sourceFilter, SwsFilter *filter, const double *parameters),
        (sourceWidth, sourceHeight, sourceFormat, width, height, format, flags, sourceFilter, filter, parameters))
FORWARD(int, sws_scale,
        (struct SwsContext *context, const uint8_t *const sourcePlanes[], const int sourceStrides[], int firstRow, int rows,
         uint8_t *const planes[], const int strides[]),
        (context, sourcePlanes, sourceStrides, firstRow, rows, planes, strides))
FORWARD_VOID(sws_freeContext, (struct SwsContext *context), (context))

#pragma GCC visibility pop
