/*
 * minimize.h: Go's byte minimizer (used for []byte and string values).
 *
 * Candidates are tried in Go's order: cut the tail in halving steps from
 * 1024, remove single bytes, remove ranges, then replace bytes by printable
 * characters. try() says whether a candidate is still interesting (crashes
 * the same way, or keeps coverage); should_stop() is polled where Go polls
 * its deadline and count limit. The candidate passed to try() is only valid
 * during the call.
 */
#ifndef CGOFUZZ_MINIMIZE_H
#define CGOFUZZ_MINIMIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef bool (*cgofuzz_minimize_try_fn)(void *ctx, const uint8_t *cand,
                                        size_t len);
typedef bool (*cgofuzz_minimize_stop_fn)(void *ctx);

/* Minimizes v[0..len) in place and returns its final length. Returns
 * (size_t)-1 only when out of memory (v is then unchanged). */
size_t cgofuzz_minimize_bytes(uint8_t *v, size_t len,
                              cgofuzz_minimize_try_fn try_fn,
                              cgofuzz_minimize_stop_fn stop_fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
