#include "czlib.h"
#include <string.h>
#include <zlib.h>

const char *sdg_zlib_version(void) { return zlibVersion(); }

uint32_t sdg_zlib_crc32(uint32_t crc, const void *bytes, size_t length) {
    return (uint32_t)crc32_z(crc, (const Bytef *)bytes, length);
}

static int window_bits(int gzip) { return gzip ? 15 + 16 : 15; }

size_t sdg_zlib_bound(size_t length, int gzip) {
    // deflateBound for the default memLevel plus the larger gzip header/trailer.
    return length + (length >> 12) + (length >> 14) + (length >> 25) + 13 + (gzip ? 18 : 6);
}

size_t sdg_zlib_deflate(const void *bytes, size_t length, int level, int gzip, void *out, size_t capacity) {
    z_stream s;
    memset(&s, 0, sizeof s);
    if (deflateInit2(&s, level, Z_DEFLATED, window_bits(gzip), 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    s.next_in = (Bytef *)bytes;
    s.next_out = (Bytef *)out;
    size_t written = 0;
    int status = Z_OK;
    // avail_in/avail_out are 32-bit: feed in slices so any size works.
    while (status == Z_OK) {
        size_t in_left = length - (size_t)((const Bytef *)s.next_in - (const Bytef *)bytes);
        size_t out_left = capacity - (size_t)(s.next_out - (Bytef *)out);
        s.avail_in = in_left > 0x40000000u ? 0x40000000u : (uInt)in_left;
        s.avail_out = out_left > 0x40000000u ? 0x40000000u : (uInt)out_left;
        if (s.avail_out == 0) break;
        status = deflate(&s, s.avail_in == in_left ? Z_FINISH : Z_NO_FLUSH);
    }
    if (status == Z_STREAM_END) written = (size_t)(s.next_out - (Bytef *)out);
    deflateEnd(&s);
    return written;
}

long sdg_zlib_inflate(const void *bytes, size_t length, void *out, size_t capacity) {
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, 15 + 32) != Z_OK) return -1;  // +32: zlib or gzip, from the header
    s.next_in = (Bytef *)bytes;
    s.avail_in = length > 0x40000000u ? 0x40000000u : (uInt)length;
    s.next_out = (Bytef *)out;
    s.avail_out = capacity > 0x40000000u ? 0x40000000u : (uInt)capacity;
    int status = inflate(&s, Z_FINISH);
    long written = status == Z_STREAM_END ? (long)(s.next_out - (Bytef *)out) : -1;
    inflateEnd(&s);
    return written;
}
