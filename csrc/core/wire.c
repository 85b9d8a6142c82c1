/*
 * wire.c: the worker-protocol messages (call, fuzzResponse,
 * minimizeResponse, pingResponse) to and from Go's JSON encoding.
 *
 * Encoding writes fields in Go's struct order with a trailing newline, so
 * the bytes equal json.Encoder's. Decoding mirrors json.Unmarshal into the
 * Go structs, including its less obvious rules, because a Go coordinator or
 * worker may be on the other end:
 *   - member names match exactly, else ASCII-case-insensitively, where
 *     U+017F matches 's' and U+212A (Kelvin) matches 'k' (Go's simple case
 *     folding); unknown members are skipped but must be well-formed;
 *   - null leaves an integer, bool or string field as it was, and resets a
 *     pointer or []byte field to nil;
 *   - a repeated member is decoded again over the previous value: the last
 *     one wins for scalars, and a repeated object member (Fuzz, Minimize)
 *     updates the struct decoded before rather than starting afresh;
 *   - []byte accepts base64 text or an array of integers 0..255; a null
 *     array element keeps the byte that was already at that index in the
 *     slice's backing array (Go reuses it), which bytes_st models;
 *   - integers must be written as integers within int64 range;
 *   - any error rejects the whole message (Unmarshal reports it too).
 * A call with several members set keeps the one Go's worker would act on:
 * Fuzz, then Minimize, then Ping.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base64.h"
#include "json_internal.h"
#include "wire.h"

/* ---- encoding ---- */

static int put_lit(cgofuzz_buf *b, const char *s) {
  return cgofuzz_buf_append(b, s, strlen(s));
}

static int put_key_int(cgofuzz_buf *b, const char *key, int64_t v) {
  return put_lit(b, key) | cgofuzz_json_put_int64(b, v);
}

static int put_bytes(cgofuzz_buf *b, const cgofuzz_wire_bytes *v) {
  if (!v->has)
    return put_lit(b, "null");
  return cgofuzz_buf_putc(b, '"') | cgofuzz_base64_encode(v->data, v->len, b) |
         cgofuzz_buf_putc(b, '"');
}

/* n == 0 means "NUL-terminated", so callers that only set the pointer work.
 * Written as release g's encoding/json writes it (gover.h). */
static int put_str(cgofuzz_buf *b, const char *s, size_t n, cgofuzz_gover g) {
  if (!s)
    return put_lit(b, "\"\"");
  unsigned flags =
      (cgofuzz_gover_json_short_bf(g) ? CGOFUZZ_JSON_SHORT_BF : 0) |
      (cgofuzz_gover_json_raw_fffd(g) ? CGOFUZZ_JSON_RAW_FFFD : 0);
  return cgofuzz_json_put_string_v(b, (const uint8_t *)s, n ? n : strlen(s),
                                   flags);
}

static int put_bool(cgofuzz_buf *b, bool v) {
  return put_lit(b, v ? "true" : "false");
}

int cgofuzz_wire_encode_call(const cgofuzz_call *c, cgofuzz_buf *out) {
  size_t start = out->len;
  int rc = put_lit(out, c->kind == CGOFUZZ_CALL_PING ? "{\"Ping\":{}"
                                                     : "{\"Ping\":null");
  if (c->kind == CGOFUZZ_CALL_FUZZ) {
    const cgofuzz_fuzz_args *a = &c->fuzz;
    rc |= put_key_int(out, ",\"Fuzz\":{\"Timeout\":", a->timeout_ns);
    rc |= put_key_int(out, ",\"Limit\":", a->limit);
    rc |= put_lit(out, ",\"Warmup\":") | put_bool(out, a->warmup);
    rc |=
        put_lit(out, ",\"CoverageData\":") | put_bytes(out, &a->coverage_data);
    rc |= put_lit(out, "}");
  } else {
    rc |= put_lit(out, ",\"Fuzz\":null");
  }
  if (c->kind == CGOFUZZ_CALL_MINIMIZE) {
    const cgofuzz_minimize_args *a = &c->minimize;
    rc |= put_key_int(out, ",\"Minimize\":{\"Timeout\":", a->timeout_ns);
    rc |= put_key_int(out, ",\"Limit\":", a->limit);
    rc |=
        put_lit(out, ",\"KeepCoverage\":") | put_bytes(out, &a->keep_coverage);
    rc |= put_key_int(out, ",\"Index\":", a->index);
    rc |= put_lit(out, "}}\n");
  } else {
    rc |= put_lit(out, ",\"Minimize\":null}\n");
  }
  if (rc)
    out->len = start; /* never half a message */
  return rc ? -1 : 0;
}

int cgofuzz_wire_encode_fuzz_resp(const cgofuzz_fuzz_resp *r,
                                  cgofuzz_buf *out) {
  return cgofuzz_wire_encode_fuzz_resp_v(r, CGOFUZZ_GOVER_DEFAULT, out);
}

int cgofuzz_wire_encode_fuzz_resp_v(const cgofuzz_fuzz_resp *r, cgofuzz_gover g,
                                    cgofuzz_buf *out) {
  size_t start = out->len;
  int rc = put_key_int(out, "{\"TotalDuration\":", r->total_duration_ns);
  rc |=
      put_key_int(out, ",\"InterestingDuration\":", r->interesting_duration_ns);
  rc |= put_key_int(out, ",\"Count\":", r->count);
  rc |= put_lit(out, ",\"CoverageData\":") | put_bytes(out, &r->coverage_data);
  rc |= put_lit(out, ",\"Err\":") | put_str(out, r->err, r->err_len, g);
  rc |= put_lit(out, ",\"InternalErr\":") |
        put_str(out, r->internal_err, r->internal_err_len, g);
  if (r->slow_unit_sec)
    rc |= put_key_int(out, ",\"CgofuzzSlowUnitSec\":", r->slow_unit_sec);
  rc |= put_lit(out, "}\n");
  if (rc)
    out->len = start;
  return rc ? -1 : 0;
}

int cgofuzz_wire_encode_minimize_resp(const cgofuzz_minimize_resp *r,
                                      cgofuzz_buf *out) {
  return cgofuzz_wire_encode_minimize_resp_v(r, CGOFUZZ_GOVER_DEFAULT, out);
}

int cgofuzz_wire_encode_minimize_resp_v(const cgofuzz_minimize_resp *r,
                                        cgofuzz_gover g, cgofuzz_buf *out) {
  size_t start = out->len;
  int rc = put_lit(out, "{\"WroteToMem\":") | put_bool(out, r->wrote_to_mem);
  rc |= put_lit(out, ",\"Err\":") | put_str(out, r->err, r->err_len, g);
  rc |= put_lit(out, ",\"CoverageData\":") | put_bytes(out, &r->coverage_data);
  rc |= put_key_int(out, ",\"Duration\":", r->duration_ns);
  rc |= put_key_int(out, ",\"Count\":", r->count);
  rc |= put_lit(out, "}\n");
  if (rc)
    out->len = start;
  return rc ? -1 : 0;
}

int cgofuzz_wire_encode_ping_resp(cgofuzz_buf *out) {
  return put_lit(out, "{}\n");
}

/* ---- decoding state ---- */

/* A []byte being decoded. hist holds every byte written into the current
 * backing array (Go's slice may be shorter than what it can still see);
 * the value is hist[0, len). */
typedef struct bytes_st {
  bool has;
  size_t len;
  cgofuzz_buf hist;
} bytes_st;

typedef struct fuzz_args_st {
  bool has;
  cgofuzz_fuzz_args v;
  bytes_st cov;
} fuzz_args_st;

typedef struct min_args_st {
  bool has;
  cgofuzz_minimize_args v;
  bytes_st keep;
} min_args_st;

typedef struct call_st {
  bool ping;
  fuzz_args_st fz;
  min_args_st mn;
} call_st;

typedef struct fuzz_resp_st {
  cgofuzz_fuzz_resp v;
  bytes_st cov;
} fuzz_resp_st;

typedef struct min_resp_st {
  cgofuzz_minimize_resp v;
  bytes_st cov;
} min_resp_st;

enum ftype { FT_I64, FT_BOOL, FT_BYTES, FT_STR, FT_PING, FT_FUZZ, FT_MIN };

typedef struct field {
  const char *name;  /* as Go spells it */
  const char *upper; /* folded: ASCII upper case */
  uint8_t type;
  size_t off;  /* into the *_st struct */
  size_t off2; /* FT_STR: where its length goes */
} field;

#define F(n, u, t, s, m)                                                       \
  { n, u, t, offsetof(s, m), 0 }
#define FS(n, u, s, m, l)                                                      \
  { n, u, FT_STR, offsetof(s, m), offsetof(s, l) }
static const field fuzz_args_fields[] = {
    F("Timeout", "TIMEOUT", FT_I64, fuzz_args_st, v.timeout_ns),
    F("Limit", "LIMIT", FT_I64, fuzz_args_st, v.limit),
    F("Warmup", "WARMUP", FT_BOOL, fuzz_args_st, v.warmup),
    F("CoverageData", "COVERAGEDATA", FT_BYTES, fuzz_args_st, cov),
};
static const field min_args_fields[] = {
    F("Timeout", "TIMEOUT", FT_I64, min_args_st, v.timeout_ns),
    F("Limit", "LIMIT", FT_I64, min_args_st, v.limit),
    F("KeepCoverage", "KEEPCOVERAGE", FT_BYTES, min_args_st, keep),
    F("Index", "INDEX", FT_I64, min_args_st, v.index),
};
static const field call_fields[] = {
    F("Ping", "PING", FT_PING, call_st, ping),
    F("Fuzz", "FUZZ", FT_FUZZ, call_st, fz),
    F("Minimize", "MINIMIZE", FT_MIN, call_st, mn),
};
static const field fuzz_resp_fields[] = {
    F("TotalDuration", "TOTALDURATION", FT_I64, fuzz_resp_st,
      v.total_duration_ns),
    F("InterestingDuration", "INTERESTINGDURATION", FT_I64, fuzz_resp_st,
      v.interesting_duration_ns),
    F("Count", "COUNT", FT_I64, fuzz_resp_st, v.count),
    F("CoverageData", "COVERAGEDATA", FT_BYTES, fuzz_resp_st, cov),
    FS("Err", "ERR", fuzz_resp_st, v.err, v.err_len),
    FS("InternalErr", "INTERNALERR", fuzz_resp_st, v.internal_err,
       v.internal_err_len),
    F("CgofuzzSlowUnitSec", "CGOFUZZSLOWUNITSEC", FT_I64, fuzz_resp_st,
      v.slow_unit_sec),
};
static const field min_resp_fields[] = {
    F("WroteToMem", "WROTETOMEM", FT_BOOL, min_resp_st, v.wrote_to_mem),
    FS("Err", "ERR", min_resp_st, v.err, v.err_len),
    F("CoverageData", "COVERAGEDATA", FT_BYTES, min_resp_st, cov),
    F("Duration", "DURATION", FT_I64, min_resp_st, v.duration_ns),
    F("Count", "COUNT", FT_I64, min_resp_st, v.count),
};
#undef F
#undef FS
#define NF(a) (sizeof(a) / sizeof((a)[0]))

static void bytes_reset(bytes_st *b) {
  cgofuzz_buf_free(&b->hist);
  b->has = false;
  b->len = 0;
}

/* Moves the decoded bytes into the public field. */
static void bytes_take(bytes_st *b, cgofuzz_wire_bytes *out) {
  out->has = b->has;
  out->len = b->has ? b->len : 0;
  out->data = b->has ? b->hist.data : NULL;
  if (!b->has)
    cgofuzz_buf_free(&b->hist);
  b->hist = (cgofuzz_buf){0};
}

static void fuzz_args_reset(fuzz_args_st *s) {
  bytes_reset(&s->cov);
  memset(s, 0, sizeof *s);
}

static void min_args_reset(min_args_st *s) {
  bytes_reset(&s->keep);
  memset(s, 0, sizeof *s);
}

/* ---- decoding ---- */

static int fail_type(cgofuzz_json_rd *r, const char *what, const char *name) {
  char msg[128];
  snprintf(msg, sizeof msg, "cannot unmarshal %s into field %s", what, name);
  return cgofuzz_json_fail(r, msg);
}

static const char *value_kind(int c) {
  switch (c) {
  case '{':
    return "object";
  case '[':
    return "array";
  case '"':
    return "string";
  case 't':
  case 'f':
    return "bool";
  case 'n':
    return "null";
  case -1:
    return "end of input";
  default:
    return "number";
  }
}

/* Wrong-typed values are rejected at once; Go would finish scanning the
 * message first, but it rejects it all the same. */
static int bad_value(cgofuzz_json_rd *r, int c, const char *name) {
  if (c == -1)
    return cgofuzz_json_fail(r, "unexpected end of input, want a value");
  return fail_type(r, value_kind(c), name);
}

static int decode_i64(cgofuzz_json_rd *r, int64_t *v, const char *name) {
  int c = cgofuzz_json_peek(r);
  if (c == 'n')
    return cgofuzz_json_literal(r, "null");
  if (c != '-' && !(c >= '0' && c <= '9'))
    return bad_value(r, c, name);
  size_t a, b;
  if (cgofuzz_json_scan_number(r, &a, &b) != 0)
    return -1;
  if (cgofuzz_json_parse_int64(r->p + a, b - a, v) != 0) {
    r->pos = a;
    return fail_type(r, "non-integer or out-of-range number", name);
  }
  return 0;
}

static int decode_bool(cgofuzz_json_rd *r, bool *v, const char *name) {
  int c = cgofuzz_json_peek(r);
  if (c == 'n')
    return cgofuzz_json_literal(r, "null");
  if (c == 't' || c == 'f') {
    *v = c == 't';
    return cgofuzz_json_literal(r, c == 't' ? "true" : "false");
  }
  return bad_value(r, c, name);
}

static int decode_str(cgofuzz_json_rd *r, char **v, size_t *vlen,
                      const char *name) {
  int c = cgofuzz_json_peek(r);
  if (c == 'n')
    return cgofuzz_json_literal(r, "null");
  if (c != '"')
    return bad_value(r, c, name);
  size_t a, b;
  unsigned fl;
  if (cgofuzz_json_scan_string(r, &a, &b, &fl) != 0)
    return -1;
  cgofuzz_buf s = {0};
  if (cgofuzz_json_unquote_buf(r->p + a, b - a, fl, &s) != 0 ||
      (s.len && cgofuzz_buf_putc(&s, 0) != 0)) {
    cgofuzz_buf_free(&s);
    return cgofuzz_json_fail(r, "out of memory");
  }
  free(*v);
  /* Go's "" means "no error": keep that as NULL so callers test the
   * pointer, while any non-empty string (even "\u0000") stays non-NULL. */
  *v = s.len ? (char *)s.data : NULL;
  *vlen = s.len ? s.len - 1 : 0;
  if (!s.len)
    cgofuzz_buf_free(&s);
  return 0;
}

static int decode_bytes(cgofuzz_json_rd *r, bytes_st *st, const char *name,
                        int depth) {
  int c = cgofuzz_json_peek(r);
  if (c == 'n') {
    bytes_reset(st);
    return cgofuzz_json_literal(r, "null");
  }
  if (c == '"') {
    size_t a, b;
    unsigned fl;
    if (cgofuzz_json_scan_string(r, &a, &b, &fl) != 0)
      return -1;
    st->hist.len = 0; /* a fresh backing array */
    int rc;
    if (fl == 0) { /* the usual case: plain base64, decode in place */
      rc = cgofuzz_base64_decode((const char *)r->p + a, b - a, &st->hist);
    } else {
      cgofuzz_buf tmp = {0};
      rc = cgofuzz_json_unquote_buf(r->p + a, b - a, fl, &tmp);
      if (rc == 0)
        rc = cgofuzz_base64_decode((const char *)tmp.data, tmp.len, &st->hist);
      cgofuzz_buf_free(&tmp);
    }
    if (rc != 0 && st->hist.failed)
      return cgofuzz_json_fail(r, "out of memory");
    if (rc != 0) {
      r->pos = a;
      return fail_type(r, "illegal base64 data", name);
    }
    st->has = true;
    st->len = st->hist.len;
    return 0;
  }
  if (c != '[')
    return bad_value(r, c, name);
  if (depth + 1 > CGOFUZZ_JSON_MAX_DEPTH)
    return cgofuzz_json_fail(r, "exceeded max depth");
  r->pos++;
  if (!st->has)
    st->hist.len = 0; /* nil slice: Go allocates a new array */
  size_t i = 0;
  if (cgofuzz_json_peek(r) != ']') {
    for (;;) {
      int e = cgofuzz_json_peek(r);
      uint8_t v;
      if (e == 'n') {
        if (cgofuzz_json_literal(r, "null") != 0)
          return -1;
        v = i < st->hist.len ? st->hist.data[i] : 0;
      } else if (e == '-' || (e >= '0' && e <= '9')) {
        size_t a, b;
        if (cgofuzz_json_scan_number(r, &a, &b) != 0)
          return -1;
        if (cgofuzz_json_parse_uint8(r->p + a, b - a, &v) != 0) {
          r->pos = a;
          return fail_type(r, "number out of uint8 range", name);
        }
      } else {
        return bad_value(r, e, name);
      }
      if (i < st->hist.len) {
        st->hist.data[i] = v;
      } else if (cgofuzz_buf_putc(&st->hist, v) != 0) {
        return cgofuzz_json_fail(r, "out of memory");
      }
      i++;
      e = cgofuzz_json_peek(r);
      if (e == ']')
        break;
      if (e != ',')
        return cgofuzz_json_fail(r, "want ',' or ']' in array");
      r->pos++;
    }
  }
  r->pos++; /* ']' */
  if (i == 0)
    st->hist.len = 0; /* Go replaces an empty result with a new slice */
  st->has = true;
  st->len = i;
  return 0;
}

/* Finds the field a member name refers to: exact spelling first, then
 * Go's case folding. Returns NULL for unknown members. */
static const field *match_field(const uint8_t *k, size_t kn, const field *fs,
                                size_t nf) {
  for (size_t i = 0; i < nf; i++)
    if (strlen(fs[i].name) == kn && memcmp(fs[i].name, k, kn) == 0)
      return &fs[i];
  /* Fold the key: ASCII to upper case, and the two non-ASCII runes whose
   * simple case folding reaches ASCII. Any other non-ASCII rune cannot
   * match our ASCII names. */
  uint8_t f[32];
  size_t fn = 0;
  for (size_t i = 0; i < kn;) {
    if (fn == sizeof f)
      return NULL;
    uint8_t c = k[i];
    if (c < 0x80) {
      f[fn++] = c >= 'a' && c <= 'z' ? (uint8_t)(c - 32) : c;
      i++;
    } else if (c == 0xC5 && i + 1 < kn && k[i + 1] == 0xBF) { /* U+017F */
      f[fn++] = 'S';
      i += 2;
    } else if (c == 0xE2 && i + 2 < kn && k[i + 1] == 0x84 &&
               k[i + 2] == 0xAA) { /* U+212A */
      f[fn++] = 'K';
      i += 3;
    } else {
      return NULL;
    }
  }
  for (size_t i = 0; i < nf; i++)
    if (strlen(fs[i].upper) == fn && memcmp(fs[i].upper, f, fn) == 0)
      return &fs[i];
  return NULL;
}

/* Longest raw key that can still name a field: 19 characters, each at most
 * a 6-byte \u escape. */
#define MAX_KEY_RAW 128

static int decode_struct(cgofuzz_json_rd *r, const field *fs, size_t nf,
                         void *st, int depth);

static int decode_field(cgofuzz_json_rd *r, const field *f, void *st,
                        int depth) {
  void *p = (char *)st + f->off;
  switch (f->type) {
  case FT_I64:
    return decode_i64(r, p, f->name);
  case FT_BOOL:
    return decode_bool(r, p, f->name);
  case FT_STR:
    return decode_str(r, p, (size_t *)((char *)st + f->off2), f->name);
  case FT_BYTES:
    return decode_bytes(r, p, f->name, depth);
  default:
    break;
  }
  /* Pointer-to-struct members: null makes them nil, an object fills the
   * existing struct (allocating it if nil). */
  int c = cgofuzz_json_peek(r);
  if (c == 'n') {
    if (f->type == FT_PING)
      *(bool *)p = false;
    else if (f->type == FT_FUZZ)
      fuzz_args_reset(p);
    else
      min_args_reset(p);
    return cgofuzz_json_literal(r, "null");
  }
  if (c != '{')
    return bad_value(r, c, f->name);
  switch (f->type) {
  case FT_PING:
    *(bool *)p = true;
    return decode_struct(r, NULL, 0, NULL, depth);
  case FT_FUZZ:
    ((fuzz_args_st *)p)->has = true;
    return decode_struct(r, fuzz_args_fields, NF(fuzz_args_fields), p, depth);
  default:
    ((min_args_st *)p)->has = true;
    return decode_struct(r, min_args_fields, NF(min_args_fields), p, depth);
  }
}

/* Decodes an object at the cursor into st; depth counts the containers
 * already open around it. */
static int decode_struct(cgofuzz_json_rd *r, const field *fs, size_t nf,
                         void *st, int depth) {
  if (depth + 1 > CGOFUZZ_JSON_MAX_DEPTH)
    return cgofuzz_json_fail(r, "exceeded max depth");
  depth++;
  r->pos++; /* '{' */
  if (cgofuzz_json_peek(r) == '}') {
    r->pos++;
    return 0;
  }
  for (;;) {
    size_t a, b;
    unsigned fl;
    if (cgofuzz_json_scan_string(r, &a, &b, &fl) != 0)
      return -1;
    const field *f = NULL;
    if (nf == 0) {
      /* no fields to match */
    } else if (fl == 0) {
      f = match_field(r->p + a, b - a, fs, nf);
    } else if (b - a <= MAX_KEY_RAW) {
      uint8_t key[3 * MAX_KEY_RAW];
      size_t kn = cgofuzz_json_unquote(r->p + a, b - a, key);
      f = match_field(key, kn, fs, nf);
    }
    if (cgofuzz_json_expect(r, ':') != 0)
      return -1;
    int rc = f ? decode_field(r, f, st, depth) : cgofuzz_json_skip(r, depth);
    if (rc != 0)
      return -1;
    int c = cgofuzz_json_peek(r);
    if (c == '}') {
      r->pos++;
      return 0;
    }
    if (c != ',')
      return cgofuzz_json_fail(r, "want ',' or '}' in object");
    r->pos++;
  }
}

/* Decodes a whole message: one object (or null) with only white space
 * around it. */
static int decode_top(const uint8_t *msg, size_t len, const field *fs,
                      size_t nf, void *st, cgofuzz_err *err) {
  cgofuzz_json_rd r = {msg, len, 0, err};
  int c = cgofuzz_json_peek(&r);
  int rc;
  if (c == 'n')
    rc = cgofuzz_json_literal(&r, "null");
  else if (c == '{')
    rc = decode_struct(&r, fs, nf, st, 0);
  else if (c == -1)
    rc = cgofuzz_json_fail(&r, "unexpected end of input");
  else
    rc = cgofuzz_json_fail(&r, "message is not a JSON object");
  if (rc != 0)
    return -1;
  if (cgofuzz_json_peek(&r) != -1)
    return cgofuzz_json_fail(&r, "invalid character after top-level value");
  return 0;
}

int cgofuzz_wire_decode_call(const uint8_t *msg, size_t len, cgofuzz_call *out,
                             cgofuzz_err *err) {
  call_st st;
  memset(&st, 0, sizeof st);
  memset(out, 0, sizeof *out);
  int rc = decode_top(msg, len, call_fields, NF(call_fields), &st, err);
  if (rc == 0 && st.fz.has) {
    out->kind = CGOFUZZ_CALL_FUZZ;
    out->fuzz = st.fz.v;
    bytes_take(&st.fz.cov, &out->fuzz.coverage_data);
  } else if (rc == 0 && st.mn.has) {
    out->kind = CGOFUZZ_CALL_MINIMIZE;
    out->minimize = st.mn.v;
    bytes_take(&st.mn.keep, &out->minimize.keep_coverage);
  } else if (rc == 0 && st.ping) {
    out->kind = CGOFUZZ_CALL_PING;
  }
  fuzz_args_reset(&st.fz);
  min_args_reset(&st.mn);
  return rc;
}

int cgofuzz_wire_decode_fuzz_resp(const uint8_t *msg, size_t len,
                                  cgofuzz_fuzz_resp *out, cgofuzz_err *err) {
  fuzz_resp_st st;
  memset(&st, 0, sizeof st);
  memset(out, 0, sizeof *out);
  int rc =
      decode_top(msg, len, fuzz_resp_fields, NF(fuzz_resp_fields), &st, err);
  if (rc == 0) {
    *out = st.v;
    bytes_take(&st.cov, &out->coverage_data);
  } else {
    free(st.v.err);
    free(st.v.internal_err);
    bytes_reset(&st.cov);
  }
  return rc;
}

int cgofuzz_wire_decode_minimize_resp(const uint8_t *msg, size_t len,
                                      cgofuzz_minimize_resp *out,
                                      cgofuzz_err *err) {
  min_resp_st st;
  memset(&st, 0, sizeof st);
  memset(out, 0, sizeof *out);
  int rc = decode_top(msg, len, min_resp_fields, NF(min_resp_fields), &st, err);
  if (rc == 0) {
    *out = st.v;
    bytes_take(&st.cov, &out->coverage_data);
  } else {
    free(st.v.err);
    bytes_reset(&st.cov);
  }
  return rc;
}

int cgofuzz_wire_decode_ping_resp(const uint8_t *msg, size_t len,
                                  cgofuzz_err *err) {
  return decode_top(msg, len, NULL, 0, NULL, err);
}

static void bytes_free(cgofuzz_wire_bytes *b) {
  free(b->data);
  b->data = NULL;
  b->len = 0;
  b->has = false;
}

void cgofuzz_call_free(cgofuzz_call *c) {
  bytes_free(&c->fuzz.coverage_data);
  bytes_free(&c->minimize.keep_coverage);
  memset(c, 0, sizeof *c);
}

void cgofuzz_fuzz_resp_free(cgofuzz_fuzz_resp *r) {
  bytes_free(&r->coverage_data);
  free(r->err);
  free(r->internal_err);
  memset(r, 0, sizeof *r);
}

void cgofuzz_minimize_resp_free(cgofuzz_minimize_resp *r) {
  bytes_free(&r->coverage_data);
  free(r->err);
  memset(r, 0, sizeof *r);
}

int cgofuzz_wire_bad_start(const uint8_t *p, size_t n, cgofuzz_err *err) {
  const uint8_t *end = p + n;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    p++;
  if (p == end || (*p && strchr("{[\"-0123456789tfn", *p)))
    return 0;
  /* The byte quoted as Go's encoding/json quoteChar does (strconv.Quote of
   * the byte as a rune, in single quotes). */
  char q[16];
  uint8_t c = *p;
  static const char esc[] = "\a\b\f\n\r\t\v";
  const char *e = c ? strchr(esc, c) : NULL;
  if (c == '\'')
    snprintf(q, sizeof q, "'\\''");
  else if (c >= 0x20 && c < 0x7f)
    snprintf(q, sizeof q, "'%c'", c);
  else if (e)
    snprintf(q, sizeof q, "'\\%c'", "abfnrtv"[e - esc]);
  else if (c < 0x80)
    snprintf(q, sizeof q, "'\\x%02x'", c);
  else if (c < 0xa0 || c == 0xad)
    snprintf(q, sizeof q, "'\\u%04x'", c);
  else
    snprintf(q, sizeof q, "'%c%c'", 0xc0 | (c >> 6), 0x80 | (c & 0x3f));
  return cgofuzz_errf(err, 0,
                      "invalid character %s looking for beginning of value", q);
}
