/*
 * wire.h: the JSON messages of Go's worker protocol.
 *
 * The coordinator writes one call per line on the worker's fd 3 and reads
 * one response per line from fd 4, strictly alternating. A call is an object
 * with exactly one non-null member among Ping, Fuzz and Minimize:
 *
 *   {"Ping":{},"Fuzz":null,"Minimize":null}
 *   {"Ping":null,"Fuzz":{"Timeout":100000000,"Limit":0,"Warmup":false,
 *    "CoverageData":"<base64>"},"Minimize":null}
 *   {"Ping":null,"Fuzz":null,"Minimize":{"Timeout":..,"Limit":..,
 *    "KeepCoverage":null,"Index":0}}
 *
 * Durations are int64 nanoseconds, []byte fields standard base64 or null.
 * Responses are fuzzResponse {TotalDuration, InterestingDuration, Count,
 * CoverageData, Err, InternalErr} (and cgofuzz's CgofuzzSlowUnitSec, only
 * when set: cgofuzz_fuzz_resp), minimizeResponse {WroteToMem, Err,
 * CoverageData, Duration, Count} and the empty ping response {}.
 *
 * Encoding matches Go's encoding/json output byte for byte (field order,
 * HTML-safe escapes, a trailing newline). Decoding follows encoding/json's
 * rules for these structs: member names match case-insensitively (an exact
 * match wins), unknown members are ignored, null leaves a field at its zero
 * value, and anything malformed is an error naming what was wrong.
 */
#ifndef CGOFUZZ_WIRE_H
#define CGOFUZZ_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "gover.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A []byte field: has == false encodes as null. data is owned (malloc). */
typedef struct cgofuzz_wire_bytes {
  bool has;
  uint8_t *data;
  size_t len;
} cgofuzz_wire_bytes;

typedef struct cgofuzz_fuzz_args {
  int64_t timeout_ns;
  int64_t limit;
  bool warmup;
  cgofuzz_wire_bytes coverage_data;
} cgofuzz_fuzz_args;

typedef struct cgofuzz_minimize_args {
  int64_t timeout_ns;
  int64_t limit;
  cgofuzz_wire_bytes keep_coverage;
  int64_t index;
} cgofuzz_minimize_args;

typedef enum cgofuzz_call_kind {
  CGOFUZZ_CALL_NONE = 0,
  CGOFUZZ_CALL_PING,
  CGOFUZZ_CALL_FUZZ,
  CGOFUZZ_CALL_MINIMIZE
} cgofuzz_call_kind;

typedef struct cgofuzz_call {
  cgofuzz_call_kind kind;
  cgofuzz_fuzz_args fuzz;         /* valid when kind == FUZZ */
  cgofuzz_minimize_args minimize; /* valid when kind == MINIMIZE */
} cgofuzz_call;

typedef struct cgofuzz_fuzz_resp {
  int64_t total_duration_ns;
  int64_t interesting_duration_ns;
  int64_t count;
  cgofuzz_wire_bytes coverage_data;
  char *err;          /* NULL or owned NUL-terminated string ("" encodes "") */
  char *internal_err; /* likewise */
  /* Lengths of err and internal_err, for messages with NUL bytes in them
   * (a panic message may quote the fuzz input). Decoders set them; when
   * encoding, 0 means strlen. Decoding "" gives NULL and 0, so a non-NULL
   * err always means Go's Err != "". */
  size_t err_len, internal_err_len;
  /* cgofuzz's own member, not Go's: a C worker under libFuzzer's command
   * line (CGOFUZZ_LF=1) ended the call after an input that ran this many
   * whole seconds, a new slowest unit (-report_slow_units); the input is in
   * the exact-input slot. Encoded only when not 0, so every other reply is
   * Go's bytes, and a Go coordinator ignores it as an unknown member. */
  int64_t slow_unit_sec;
} cgofuzz_fuzz_resp;

typedef struct cgofuzz_minimize_resp {
  bool wrote_to_mem;
  char *err; /* as in cgofuzz_fuzz_resp */
  cgofuzz_wire_bytes coverage_data;
  int64_t duration_ns;
  int64_t count;
  size_t err_len; /* as in cgofuzz_fuzz_resp */
} cgofuzz_minimize_resp;

/* Encoders append one message and its trailing '\n'; out of memory, they
 * append nothing (never half a message) and return -1. */
int cgofuzz_wire_encode_call(const cgofuzz_call *c, cgofuzz_buf *out);
int cgofuzz_wire_encode_fuzz_resp(const cgofuzz_fuzz_resp *r, cgofuzz_buf *out);
int cgofuzz_wire_encode_minimize_resp(const cgofuzz_minimize_resp *r,
                                      cgofuzz_buf *out);
int cgofuzz_wire_encode_ping_resp(cgofuzz_buf *out);
/* The responses as release g's encoding/json writes them (go1.18-go1.21
 * escape '\b' and '\f' in Err strings as "\u0008" and "\u000c"); the
 * functions above write the newest release's bytes. Go's decoders accept
 * both forms, so this matters only for byte-exact comparisons. */
int cgofuzz_wire_encode_fuzz_resp_v(const cgofuzz_fuzz_resp *r, cgofuzz_gover g,
                                    cgofuzz_buf *out);
int cgofuzz_wire_encode_minimize_resp_v(const cgofuzz_minimize_resp *r,
                                        cgofuzz_gover g, cgofuzz_buf *out);

/* Decoders parse exactly one JSON value in msg[0..len) (surrounding white
 * space allowed). They return 0, or -1 with err->msg saying what is wrong
 * (offset and reason). On -1 the output holds nothing that needs freeing.
 * A call with no member set decodes with kind CGOFUZZ_CALL_NONE (Go's worker
 * treats that as an error; the caller decides). */
int cgofuzz_wire_decode_call(const uint8_t *msg, size_t len, cgofuzz_call *out,
                             cgofuzz_err *err);
int cgofuzz_wire_decode_fuzz_resp(const uint8_t *msg, size_t len,
                                  cgofuzz_fuzz_resp *out, cgofuzz_err *err);
int cgofuzz_wire_decode_minimize_resp(const uint8_t *msg, size_t len,
                                      cgofuzz_minimize_resp *out,
                                      cgofuzz_err *err);
int cgofuzz_wire_decode_ping_resp(const uint8_t *msg, size_t len,
                                  cgofuzz_err *err);

void cgofuzz_call_free(cgofuzz_call *c);
void cgofuzz_fuzz_resp_free(cgofuzz_fuzz_resp *r);
void cgofuzz_minimize_resp_free(cgofuzz_minimize_resp *r);

/* Go's coordinator reads a worker's responses with a streaming JSON
 * decoder, which fails at the first byte that cannot begin a value, newline
 * or not. Returns -1 with err set to Go's message ("invalid character '!'
 * looking for beginning of value") when the first byte of p[0..n) other
 * than white space is one, else 0 (also when there is none yet). */
int cgofuzz_wire_bad_start(const uint8_t *p, size_t n, cgofuzz_err *err);

#ifdef __cplusplus
}
#endif
#endif
