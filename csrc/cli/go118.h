/*
 * go118.h: how a go-118-fuzz-build target (OSS-Fuzz's native Go fuzzers,
 * github.com/AdamKorcz/go-118-fuzz-build) turns libFuzzer's raw bytes into
 * its fuzz function's arguments, so that its corpora and reproducers can
 * become ordinary `go test fuzz v1` files (`cgofuzz corpus convert -from
 * go118`).
 *
 * That build's testing.F.Fuzz reads the arguments in order with
 * github.com/AdaLogics/go-fuzz-headers' ConsumeFuzzer, one call per
 * argument (docs/corpus-tools.md has the table). When a call runs out of
 * bytes it returns before calling the fuzz function: that input never
 * reaches the target, and decoding it fails.
 */
#ifndef CGOFUZZ_CLI_GO118_H
#define CGOFUZZ_CLI_GO118_H

#include <stddef.h>
#include <stdint.h>

#include "cgofuzz/value.h"
#include "codec.h"

/* Decodes data for a target with the given argument kinds, appending the
 * values to out (owned copies). Returns 0; -1 with err->msg
 * naming the argument that did not get its bytes when go-118-fuzz-build
 * would not call the target; -2 when out of memory. */
int cli_go118_decode(const cgofuzz_kind *kinds, size_t n, const uint8_t *data,
                     size_t len, cgofuzz_values *out, cgofuzz_err *err);

#endif
