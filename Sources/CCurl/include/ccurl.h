#ifndef SDG_CCURL_H
#define SDG_CCURL_H
// Thin wrapper over libcurl for Swift: typed setters for curl's variadic calls.
// Imported only by the WebImage module. Every symbol carries the sdg_curl_ prefix.
#include <curl/curl.h>

/// curl_global_init(CURL_GLOBAL_DEFAULT); call once per process before any other curl call.
CURLcode sdg_curl_global_init(void);

/// libcurl's version string ("libcurl/7.88.1 OpenSSL/3.0 ...").
const char *sdg_curl_version(void);

CURLcode sdg_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode sdg_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode sdg_curl_easy_setopt_str(CURL *handle, CURLoption option, const char *value);
CURLcode sdg_curl_easy_setopt_ptr(CURL *handle, CURLoption option, void *value);
CURLcode sdg_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode sdg_curl_easy_setopt_share(CURL *handle, CURLSH *share);

typedef size_t (*sdg_curl_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*sdg_curl_xferinfo_callback)(void *clientp, curl_off_t dltotal, curl_off_t dlnow,
                                          curl_off_t ultotal, curl_off_t ulnow);
CURLcode sdg_curl_easy_set_write_callback(CURL *handle, sdg_curl_data_callback cb, void *userdata);
CURLcode sdg_curl_easy_set_header_callback(CURL *handle, sdg_curl_data_callback cb, void *userdata);
CURLcode sdg_curl_easy_set_xferinfo_callback(CURL *handle, sdg_curl_xferinfo_callback cb, void *userdata);
// CURLOPT_PREREQFUNCTION (7.80+): called before each request is sent, redirects included.
typedef int (*sdg_curl_prereq_callback)(void *clientp, char *primary_ip, char *local_ip, int primary_port, int local_port);
CURLcode sdg_curl_easy_set_prereq_callback(CURL *handle, sdg_curl_prereq_callback cb, void *userdata);

CURLcode sdg_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *out);
CURLcode sdg_curl_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *out);
CURLcode sdg_curl_easy_getinfo_str(CURL *handle, CURLINFO info, const char **out);
CURLcode sdg_curl_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **out);

CURLMcode sdg_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLSHcode sdg_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value);

/// The CURLMsg fields Swift needs, read without touching the C union.
int sdg_curl_multi_info_read(CURLM *multi, CURL **easy, CURLcode *result);

#endif
