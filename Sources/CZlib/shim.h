// The system zlib, for inflating Core Data's compressed model cache (Z_MODELCACHE).
#include <zlib.h>
