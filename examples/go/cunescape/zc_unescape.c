// The C half of examples/xlang/unescape, compiled into this package. Go's
// build cache does not track this include: after editing the C source, run
// go test with -a (or go clean -cache) to rebuild.
#include "../../xlang/unescape/c/unescape.c"
