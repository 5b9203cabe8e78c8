#include "ccrypto.h"
#include <openssl/crypto.h>
#include <openssl/evp.h>

// OpenSSL frees its global state (providers, their locks) in an atexit handler, unless its first
// initialisation says not to. Threads that outlive `exit` (a disk-cache store naming its file, curl
// on the network thread) then hash through freed locks and crash in the process's last moments
// (seen under TSan: EVP_MD_fetch → CRYPTO_THREAD_read_lock on a NULL lock). Initialising here, at
// load, before libcurl's `curl_global_init`, makes that first initialisation ours: the state stays
// until the process is gone, which is all the cleanup would have achieved.
__attribute__((constructor)) static void sdg_crypto_keep_state_at_exit(void) {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

int sdg_crypto_sha256(const void *bytes, size_t length, unsigned char digest[32]) {
    unsigned int size = 0;
    return EVP_Digest(bytes, length, digest, &size, EVP_sha256(), NULL) == 1 && size == 32;
}
