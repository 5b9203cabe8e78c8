#include "ccurl.h"

const char *sdg_curl_version(void) { return curl_version(); }
CURLcode sdg_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

CURLcode sdg_curl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
CURLcode sdg_curl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
CURLcode sdg_curl_easy_setopt_str(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
CURLcode sdg_curl_easy_setopt_ptr(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
CURLcode sdg_curl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
CURLcode sdg_curl_easy_setopt_share(CURL *h, CURLSH *s) { return curl_easy_setopt(h, CURLOPT_SHARE, s); }

CURLcode sdg_curl_easy_set_write_callback(CURL *h, sdg_curl_data_callback cb, void *ud) {
    CURLcode rc = curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, cb);
    return rc != CURLE_OK ? rc : curl_easy_setopt(h, CURLOPT_WRITEDATA, ud);
}
CURLcode sdg_curl_easy_set_header_callback(CURL *h, sdg_curl_data_callback cb, void *ud) {
    CURLcode rc = curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, cb);
    return rc != CURLE_OK ? rc : curl_easy_setopt(h, CURLOPT_HEADERDATA, ud);
}
CURLcode sdg_curl_easy_set_xferinfo_callback(CURL *h, sdg_curl_xferinfo_callback cb, void *ud) {
    CURLcode rc = curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, cb);
    if (rc != CURLE_OK) return rc;
    rc = curl_easy_setopt(h, CURLOPT_XFERINFODATA, ud);
    return rc != CURLE_OK ? rc : curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
}

CURLcode sdg_curl_easy_set_prereq_callback(CURL *h, sdg_curl_prereq_callback cb, void *ud) {
    CURLcode rc = curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, cb);
    return rc != CURLE_OK ? rc : curl_easy_setopt(h, CURLOPT_PREREQDATA, ud);
}

CURLcode sdg_curl_easy_getinfo_long(CURL *h, CURLINFO i, long *out) { return curl_easy_getinfo(h, i, out); }
CURLcode sdg_curl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *out) { return curl_easy_getinfo(h, i, out); }
CURLcode sdg_curl_easy_getinfo_str(CURL *h, CURLINFO i, const char **out) { return curl_easy_getinfo(h, i, out); }
CURLcode sdg_curl_easy_getinfo_ptr(CURL *h, CURLINFO i, void **out) { return curl_easy_getinfo(h, i, out); }

CURLMcode sdg_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
CURLSHcode sdg_curl_share_setopt_long(CURLSH *s, CURLSHoption o, long v) { return curl_share_setopt(s, o, v); }

int sdg_curl_multi_info_read(CURLM *multi, CURL **easy, CURLcode *result) {
    int queued = 0;
    for (;;) {
        CURLMsg *msg = curl_multi_info_read(multi, &queued);
        if (msg == NULL) return 0;
        if (msg->msg == CURLMSG_DONE) {
            *easy = msg->easy_handle;
            *result = msg->data.result;
            return 1;
        }
    }
}
