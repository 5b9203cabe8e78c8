#ifndef SDG_CJXL_H
#define SDG_CJXL_H
// Thin wrapper over libjxl's decoder (jxl/decode.h, libjxl 0.7) for Swift. Imported only by
// ImageCodecs. Prefix: sdg_jxl_. The decoder runs single-threaded (no parallel runner: decodes
// already run on background queues) and keeps the bytes libjxl has not consumed yet between feeds.
#include <stddef.h>
#include <stdint.h>

/// What `sdg_jxl_process` stopped at.
enum {
    SDG_JXL_NEED_MORE = 0,    ///< every byte fed so far is used: feed more (or close the input)
    SDG_JXL_BASIC_INFO = 1,   ///< the header is in: `sdg_jxl_get_info` answers
    SDG_JXL_FRAME = 2,        ///< a frame header is in: `sdg_jxl_frame_duration` answers
    SDG_JXL_NEED_BUFFER = 3,  ///< give the output buffer (`sdg_jxl_set_buffer`), then process again
    SDG_JXL_PROGRESSION = 4,  ///< a progressive step (the DC, 1/8) is in: `sdg_jxl_flush` can show it
    SDG_JXL_FULL_IMAGE = 5,   ///< a frame is complete in the output buffer
    SDG_JXL_SUCCESS = 6,      ///< the whole file is decoded
    SDG_JXL_ERROR = 7,        ///< libjxl rejected the data (or memory ran out)
};

typedef struct sdg_jxl sdg_jxl;

typedef struct {
    uint32_t width, height;        ///< the size of the output, orientation applied
    uint32_t has_alpha, have_animation;
    uint32_t tps_numerator, tps_denominator, num_loops;
} sdg_jxl_info;

/// A decoder producing RGBA8 (straight alpha, orientation applied), or NULL (out of memory).
/// `progressive`: report the DC (1/8) step of each frame (`SDG_JXL_PROGRESSION`).
sdg_jxl *sdg_jxl_create(int progressive);
void sdg_jxl_destroy(sdg_jxl *d);
/// Appends bytes to the input (copied). Returns 0, or -1 when out of memory.
int sdg_jxl_append(sdg_jxl *d, const uint8_t *bytes, size_t length);
/// No more bytes will come.
void sdg_jxl_close_input(sdg_jxl *d);
/// Decodes until the next event (SDG_JXL_*).
int sdg_jxl_process(sdg_jxl *d);
/// Facts from the header (after SDG_JXL_BASIC_INFO). Returns 0, or -1 before.
int sdg_jxl_get_info(sdg_jxl *d, sdg_jxl_info *info);
/// The current frame's duration in ticks (after SDG_JXL_FRAME); 0 for a still.
uint32_t sdg_jxl_frame_duration(sdg_jxl *d);
/// Bytes the output buffer needs (after SDG_JXL_NEED_BUFFER); 0 on error.
size_t sdg_jxl_buffer_size(sdg_jxl *d);
/// Sets the caller-owned output buffer (RGBA8, `width` × `height` of the info). Returns 0 or -1.
int sdg_jxl_set_buffer(sdg_jxl *d, uint8_t *out, size_t size);
/// Renders what the bytes so far give of the current frame into the buffer (the DC upsampled after
/// SDG_JXL_PROGRESSION). Returns 0, or -1 when nothing could be flushed yet.
int sdg_jxl_flush(sdg_jxl *d);
/// The downsampling of the last progressive step (8 for the DC; 1, 2, 4 or 8).
int sdg_jxl_progression_ratio(sdg_jxl *d);
/// Bytes fed but not consumed by libjxl yet.
size_t sdg_jxl_pending(sdg_jxl *d);
/// libjxl's version, packed as major * 1000000 + minor * 1000 + patch.
uint32_t sdg_jxl_version(void);

#endif
