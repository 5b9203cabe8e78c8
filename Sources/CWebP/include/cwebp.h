#ifndef SDG_CWEBP_H
#define SDG_CWEBP_H
// Thin wrapper over libwebp and libwebpdemux for Swift. Imported only by ImageCodecs. Prefix: sdg_webp_.
#include <webp/decode.h>
#include <webp/demux.h>

/// libwebp decoder version, packed as (major << 16) | (minor << 8) | revision.
int sdg_webp_decoder_version(void);
/// libwebpdemux version, packed the same way.
int sdg_webp_demux_version(void);

#endif
