#include "cpng.h"

unsigned long sdg_png_version_number(void) { return (unsigned long)png_access_version_number(); }
