#ifndef SDG_CCRYPTO_H
#define SDG_CCRYPTO_H
// Thin wrapper over OpenSSL's libcrypto (already in the process through libcurl). Imported only by
// WebImage. Prefix: sdg_crypto_.
#include <stddef.h>

/// SHA-256 of `length` bytes into `digest` (32 bytes) through EVP. Returns 1 on success, 0 on failure.
int sdg_crypto_sha256(const void *bytes, size_t length, unsigned char digest[32]);

#endif
