#ifndef SDG_CZLIB_H
#define SDG_CZLIB_H
// Thin wrapper over zlib for Swift (deflateInit2 is a macro). Imported only by the Zlib module.
// Prefix: sdg_zlib_.
#include <stddef.h>
#include <stdint.h>

/// zlib's version string ("1.2.13").
const char *sdg_zlib_version(void);

/// Continues a CRC-32 (IEEE, the zlib/PNG/gzip polynomial) over `length` bytes; start with 0.
uint32_t sdg_zlib_crc32(uint32_t crc, const void *bytes, size_t length);

/// An upper bound of the compressed size of `length` bytes (zlib or gzip wrapper).
size_t sdg_zlib_bound(size_t length, int gzip);

/// Deflates `length` bytes into `out` (`capacity` bytes, at least `sdg_zlib_bound`) with a zlib
/// (RFC 1950) or, when `gzip` is non-zero, a gzip (RFC 1952) wrapper, at `level` (0…9; -1 default).
/// Returns the compressed size, or 0 on failure.
size_t sdg_zlib_deflate(const void *bytes, size_t length, int level, int gzip, void *out, size_t capacity);

/// Inflates a zlib or gzip stream (detected from its header) into `out` (`capacity` bytes).
/// Returns the number of bytes written, or -1 when the stream is bad or does not fit.
long sdg_zlib_inflate(const void *bytes, size_t length, void *out, size_t capacity);

#endif
