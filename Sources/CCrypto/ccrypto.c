#include "ccrypto.h"
#include <openssl/evp.h>

int sdg_crypto_sha256(const void *bytes, size_t length, unsigned char digest[32]) {
    unsigned int size = 0;
    return EVP_Digest(bytes, length, digest, &size, EVP_sha256(), NULL) == 1 && size == 32;
}
