#include "cheif.h"
#include <string.h>

/// Copies the error's text while what owns it is alive, and points the error at the copy.
static struct heif_error kept(struct heif_error e, char *message, size_t message_size) {
    if (message_size == 0) return e;
    message[0] = 0;
    if (e.message) strncat(message, e.message, message_size - 1);
    e.message = message;
    return e;
}

const char *sdg_heif_version(void) { return heif_get_version(); }

int sdg_heif_has_hevc_decoder(void) { return heif_have_decoder_for_format(heif_compression_HEVC); }

int sdg_heif_has_brand(const uint8_t *bytes, size_t length, const char *brand) {
    return heif_has_compatible_brand(bytes, length > INT32_MAX ? INT32_MAX : (int)length, brand) == 1;
}

struct heif_error sdg_heif_open(const uint8_t *bytes, size_t length, int dimension_limit,
                                struct heif_context **context, struct heif_image_handle **handle,
                                char *message, size_t message_size) {
    *context = NULL;
    *handle = NULL;
    struct heif_context *ctx = heif_context_alloc();
    if (!ctx) {
        struct heif_error e = { heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory" };
        return kept(e, message, message_size);
    }
    heif_context_set_maximum_image_size_limit(ctx, dimension_limit);
    heif_context_set_max_decoding_threads(ctx, 0);
    struct heif_error e = heif_context_read_from_memory_without_copy(ctx, bytes, length, NULL);
    if (e.code == heif_error_Ok) e = heif_context_get_primary_image_handle(ctx, handle);
    if (e.code != heif_error_Ok) {
        e = kept(e, message, message_size);
        *handle = NULL;
        heif_context_free(ctx);
        return e;
    }
    *context = ctx;
    return e;
}

void sdg_heif_close(struct heif_context *context, struct heif_image_handle *handle) {
    if (handle) heif_image_handle_release(handle);
    if (context) heif_context_free(context);
}

struct heif_error sdg_heif_decode_rgba(const struct heif_image_handle *handle, struct heif_image **image,
                                       int *width, int *height, int *stride, const uint8_t **pixels,
                                       char *message, size_t message_size) {
    *image = NULL;
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options) {
        options->ignore_transformations = 0;
        options->convert_hdr_to_8bit = 1;
        options->strict_decoding = 1;
    }
    struct heif_error e = heif_decode_image(handle, image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options);
    heif_decoding_options_free(options);
    if (e.code != heif_error_Ok) {
        e = kept(e, message, message_size);
        if (*image) heif_image_release(*image);
        *image = NULL;
        return e;
    }
    *width = heif_image_get_primary_width(*image);
    *height = heif_image_get_primary_height(*image);
    *pixels = heif_image_get_plane_readonly(*image, heif_channel_interleaved, stride);
    if (!*pixels || *width <= 0 || *height <= 0 || *stride < *width * 4) {
        heif_image_release(*image);
        *image = NULL;
        struct heif_error bad = { heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "no RGBA plane" };
        return kept(bad, message, message_size);
    }
    return e;
}
