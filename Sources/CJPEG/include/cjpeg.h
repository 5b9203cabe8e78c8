#ifndef SDG_CJPEG_H
#define SDG_CJPEG_H
// Thin wrapper over libjpeg-turbo for Swift. libjpeg reports errors by longjmp, so every call that can
// jump stays inside C behind a setjmp in this target; Swift sees return codes and a message buffer.
// Imported only by the ImageCodecs module. Every symbol carries the sdg_jpeg_ prefix.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>

/// libjpeg-turbo's version as a number (2001005 for 2.1.5), fixed at build time (the library has no
/// runtime query); and the libjpeg API level it implements (62, 70 or 80).
long sdg_jpeg_turbo_version_number(void);
int sdg_jpeg_lib_version(void);

/// Status codes returned by the decoder calls.
enum {
    SDG_JPEG_ERROR = -1,     ///< libjpeg rejected the data; see sdg_jpeg_message
    SDG_JPEG_SUSPENDED = 0,  ///< more bytes are needed
    SDG_JPEG_OK = 1,         ///< the step completed
    SDG_JPEG_DONE = 2,       ///< the whole image is decoded
};

/// One decode: a libjpeg decompressor, a suspending memory source fed by sdg_jpeg_append, an error
/// manager that longjmps only inside this file and prints nothing, and the RGBA output buffer.
typedef struct sdg_jpeg sdg_jpeg;

/// What the header says (valid after sdg_jpeg_read_header returned SDG_JPEG_OK).
typedef struct sdg_jpeg_info {
    int width, height, components;
    int jpeg_color_space;   ///< J_COLOR_SPACE of the file (JCS_YCbCr, JCS_GRAYSCALE, JCS_CMYK, JCS_YCCK, …)
    int progressive;        ///< 1 if the file has several scans
    int saw_adobe;          ///< 1 if an Adobe APP14 marker was seen (CMYK values are then inverted)
    int arithmetic;         ///< 1 for arithmetic coding (SOF9–SOF15): libjpeg's arithmetic decoder
                            ///< cannot suspend, so such data is decoded only once it is all in
    size_t coefficient_bytes; ///< bytes of the whole-image coefficient arrays a buffered-mode decode keeps
} sdg_jpeg_info;

/// Creates a decoder (NULL on allocation failure). Destroy with sdg_jpeg_destroy.
sdg_jpeg *sdg_jpeg_create(void);
void sdg_jpeg_destroy(sdg_jpeg *d);
/// Appends bytes to the input (copied; already-consumed input is dropped). 0 on allocation failure.
int sdg_jpeg_append(sdg_jpeg *d, const uint8_t *bytes, size_t length);
/// One-shot input: libjpeg reads `bytes` where they are, without a copy (a whole file; nothing
/// appended before or after). The caller keeps them alive and unchanged until the session is
/// destroyed. 0 when input was appended already.
int sdg_jpeg_borrow(sdg_jpeg *d, const uint8_t *bytes, size_t length);
/// Reads the header (and saves APP1 markers). SDG_JPEG_OK, SDG_JPEG_SUSPENDED or SDG_JPEG_ERROR.
int sdg_jpeg_read_header(sdg_jpeg *d, sdg_jpeg_info *info);
/// The first APP1 "Exif" payload, or NULL. Valid until the decoder is destroyed.
const uint8_t *sdg_jpeg_exif(sdg_jpeg *d, size_t *length);
/// Chooses the DCT scale (1/denominator, denominator in 1, 2, 4, 8) and buffered-image mode, then
/// allocates the zeroed RGBA output (width × height × 4). SDG_JPEG_OK or SDG_JPEG_ERROR.
int sdg_jpeg_configure(sdg_jpeg *d, int scale_denom, int buffered, int *out_width, int *out_height);
/// Decodes as far as the input allows. Single-pass mode: rows into the output; returns SDG_JPEG_DONE
/// at the end. Buffered mode: absorbs input; returns SDG_JPEG_OK once the end of the image is in.
/// Arithmetic-coded data that ends early also gives SDG_JPEG_SUSPENDED (the decoder is then spent).
int sdg_jpeg_advance(sdg_jpeg *d);
/// Consumes at most `scans` scans (0: no limit; set before decoding). Buffered mode ends the input
/// there (as if an EOI followed the last scan allowed, whatever else arrives) and renders that scan
/// as the final image; single-pass mode fails with a message.
void sdg_jpeg_set_scan_limit(sdg_jpeg *d, int scans);
/// 1 when buffered-mode input stopped at the scan limit before the end of the image.
int sdg_jpeg_scan_limited(const sdg_jpeg *d);
/// Rows of the output decoded so far (single-pass mode).
int sdg_jpeg_rows(const sdg_jpeg *d);
/// Scans whose data has fully arrived (buffered mode).
int sdg_jpeg_completed_scans(const sdg_jpeg *d);
/// One scan's header as libjpeg read it (buffered mode): the components it carries (indices into the
/// frame's), its band of coefficients Ss..Se (zigzag) and its point transform Al. `valid` is 0 for a
/// band libjpeg accepted but that names no coefficients (Ss > Se or Se > 63).
typedef struct {
    uint8_t count;
    uint8_t components[4];
    uint8_t ss, se, al;
    uint8_t valid;
} sdg_jpeg_scan_header;
/// Scan headers read so far (buffered mode), at most the first 256: header `i` is scan `i + 1`. What
/// they carry decides when a scale is final (`JPEGScaleCoverage`, the rule the network side's
/// `NeededBytes` applies to the same headers read from the bytes).
int sdg_jpeg_scan_count(const sdg_jpeg *d);
/// Header `index` (< `sdg_jpeg_scan_count`); 0 when there is none.
int sdg_jpeg_scan_at(const sdg_jpeg *d, int index, sdg_jpeg_scan_header *out);
/// Buffered mode: renders the image as of scan `scan` (≤ completed scans) into the output.
/// If the whole input is in and `scan` is the last one, also finishes the decompression.
int sdg_jpeg_render_scan(sdg_jpeg *d, int scan);
/// The RGBA output (straight alpha, alpha 0 where nothing was decoded yet).
const uint8_t *sdg_jpeg_pixels(const sdg_jpeg *d);
/// libjpeg's message for the last error (or warning), never NULL.
const char *sdg_jpeg_message(const sdg_jpeg *d);
/// Number of warnings libjpeg emitted (corrupt data it skipped over).
long sdg_jpeg_warnings(const sdg_jpeg *d);
/// Bytes allocated for input not yet consumed (to check that memory stays bounded).
size_t sdg_jpeg_input_capacity(const sdg_jpeg *d);

#endif
