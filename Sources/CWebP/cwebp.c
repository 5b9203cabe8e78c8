#include "cwebp.h"

int sdg_webp_decoder_version(void) { return WebPGetDecoderVersion(); }
int sdg_webp_demux_version(void) { return WebPGetDemuxVersion(); }
