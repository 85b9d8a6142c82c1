// The C target FuzzUnescape (CGOFUZZ_TARGET), unchanged from the example
// the C target binary is built from. See zc_unescape.c about rebuilding.
#include "../../xlang/unescape/c/fuzz_unescape.c"
