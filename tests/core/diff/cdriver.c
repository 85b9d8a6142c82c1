/*
 * cdriver.c: the C side of the differential tests.
 *
 * Reads one request per line on stdin and writes one response line per
 * request on stdout, using the cgofuzz C API. The reference driver
 * (tests/core/diff/refdriver/main.go.txt) answers the same requests with Go's
 * internal/fuzz; tests/core/diff/difftest.py compares the two line by line.
 * The protocol is described in tests/core/diff/README.md.
 *
 * Usage: cgofuzz_cdriver [-go 1.N]. The Go release to behave like (gover.h)
 * defaults to the newest; difftest.py passes the reference driver's.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cgofuzz/value.h"
#include "codec.h"
#include "codec_internal.h" /* cgofuzz_hexval */
#include "gover.h"
#include "minimize.h"
#include "mutator.h"
#include "pcg.h"
#include "wire.h"

/* ---- output ------------------------------------------------------------ */

static cgofuzz_buf out; /* the response being built */
static cgofuzz_gover gover = CGOFUZZ_GOVER_DEFAULT; /* -go 1.N */

static void oom(void) {
  fprintf(stderr, "cdriver: out of memory\n");
  exit(2);
}

static void put(const char *s) {
  if (cgofuzz_buf_puts(&out, s) != 0)
    oom();
}

static void putx(uint64_t v) {
  char tmp[24];
  snprintf(tmp, sizeof tmp, "%" PRIx64, v);
  put(tmp);
}

static void puthex(const uint8_t *p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  if (cgofuzz_buf_reserve(&out, 2 * n) != 0)
    oom();
  for (size_t i = 0; i < n; i++) {
    out.data[out.len++] = (uint8_t)digits[p[i] >> 4];
    out.data[out.len++] = (uint8_t)digits[p[i] & 15];
  }
}

/* ---- request parsing --------------------------------------------------- */

/* A malformed request is a harness bug: answer "badreq" and go on. */
static const char *bad_request;

/* Decodes hex s[0..n) into a malloc'd buffer (never NULL on success). */
static uint8_t *unhex(const char *s, size_t n, size_t *len) {
  if (n % 2 != 0) {
    bad_request = "odd hex";
    return NULL;
  }
  uint8_t *p = malloc(n / 2 + 1);
  if (p == NULL)
    oom();
  for (size_t i = 0; i < n / 2; i++) {
    int hi = cgofuzz_hexval(s[2 * i]), lo = cgofuzz_hexval(s[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      free(p);
      bad_request = "bad hex";
      return NULL;
    }
    p[i] = (uint8_t)(hi << 4 | lo);
  }
  *len = n / 2;
  return p;
}

static uint64_t u64n(const char *s, size_t n) {
  uint64_t v = 0;
  if (n == 0 || n > 16) {
    bad_request = "bad number";
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    int d = cgofuzz_hexval(s[i]);
    if (d < 0) {
      bad_request = "bad number";
      return 0;
    }
    v = v << 4 | (uint64_t)d;
  }
  return v;
}

static uint64_t u64s(const char *s) { return u64n(s, strlen(s)); }

/* Splits line in place at tabs into at most max fields. */
static size_t split(char *line, char sep, char **f, size_t max) {
  size_t n = 0;
  f[n++] = line;
  for (char *p = line; *p; p++) {
    if (*p == sep) {
      *p = 0;
      if (n == max)
        return max + 1;
      f[n++] = p + 1;
    }
  }
  return n;
}

/* Parses "<n> kind:hex ..." into vs (owned values). */
static int parse_vals(char *s, cgofuzz_values *vs) {
  char *save = NULL;
  char *tok = strtok_r(s, " ", &save);
  if (tok == NULL) {
    bad_request = "empty value list";
    return -1;
  }
  size_t want = (size_t)strtoull(tok, NULL, 10);
  while ((tok = strtok_r(NULL, " ", &save)) != NULL) {
    char *colon = strchr(tok, ':');
    if (colon == NULL) {
      bad_request = "bad value";
      return -1;
    }
    *colon = 0;
    const char *h = colon + 1;
    cgofuzz_value v;
    memset(&v, 0, sizeof v);
    int k;
    for (k = 0; k < CGOFUZZ_NKINDS; k++)
      if (strcmp(tok, cgofuzz_kind_name((cgofuzz_kind)k)) == 0)
        break;
    if (k == CGOFUZZ_NKINDS) {
      bad_request = "bad kind";
      return -1;
    }
    v.kind = (cgofuzz_kind)k;
    uint64_t u = 0;
    if (v.kind != CGOFUZZ_BYTES && v.kind != CGOFUZZ_STRING)
      u = u64s(h);
    switch (v.kind) {
    case CGOFUZZ_BYTES:
    case CGOFUZZ_STRING: {
      size_t n = 0;
      uint8_t *p = unhex(h, strlen(h), &n);
      if (p == NULL)
        return -1;
      v.s.data = p;
      v.s.len = n;
      int rc = cgofuzz_values_push(vs, &v);
      free(p);
      if (rc != 0)
        oom();
      continue;
    }
    case CGOFUZZ_BOOL:
      v.b = u != 0;
      break;
    case CGOFUZZ_INT:
    case CGOFUZZ_INT64:
      v.i = (int64_t)u;
      break;
    case CGOFUZZ_INT8:
      v.i = (int8_t)u;
      break;
    case CGOFUZZ_INT16:
      v.i = (int16_t)u;
      break;
    case CGOFUZZ_INT32:
      v.i = (int32_t)u;
      break;
    case CGOFUZZ_UINT:
    case CGOFUZZ_UINT64:
      v.u = u;
      break;
    case CGOFUZZ_UINT8:
      v.u = (uint8_t)u;
      break;
    case CGOFUZZ_UINT16:
      v.u = (uint16_t)u;
      break;
    case CGOFUZZ_UINT32:
      v.u = (uint32_t)u;
      break;
    case CGOFUZZ_FLOAT32: {
      uint32_t b32 = (uint32_t)u;
      memcpy(&v.f32, &b32, 4);
      break;
    }
    case CGOFUZZ_FLOAT64:
      memcpy(&v.f64, &u, 8);
      break;
    default:
      break;
    }
    if (cgofuzz_values_push(vs, &v) != 0)
      oom();
  }
  if (vs->n != want) {
    bad_request = "value count";
    return -1;
  }
  return 0;
}

static void put_vals(const cgofuzz_value *v, size_t n) {
  char tmp[32];
  snprintf(tmp, sizeof tmp, "%zu", n);
  put(tmp);
  for (size_t i = 0; i < n; i++) {
    put(" ");
    if ((unsigned)v[i].kind >= CGOFUZZ_NKINDS) {
      put("unknown:");
      continue;
    }
    put(cgofuzz_kind_name(v[i].kind));
    put(":");
    switch (v[i].kind) {
    case CGOFUZZ_BYTES:
    case CGOFUZZ_STRING:
      puthex(v[i].s.data, v[i].s.len);
      break;
    case CGOFUZZ_BOOL:
      put(v[i].b ? "1" : "0");
      break;
    case CGOFUZZ_INT:
    case CGOFUZZ_INT8:
    case CGOFUZZ_INT16:
    case CGOFUZZ_INT32:
    case CGOFUZZ_INT64:
      putx((uint64_t)v[i].i);
      break;
    case CGOFUZZ_FLOAT32: {
      uint32_t b32;
      memcpy(&b32, &v[i].f32, 4);
      putx(b32);
      break;
    }
    case CGOFUZZ_FLOAT64: {
      uint64_t b64;
      memcpy(&b64, &v[i].f64, 8);
      putx(b64);
      break;
    }
    default:
      putx(v[i].u);
      break;
    }
  }
}

/* ---- dec / enc / mut --------------------------------------------------- */

static void do_dec(char **f) {
  size_t n = 0;
  uint8_t *file = unhex(f[1], strlen(f[1]), &n);
  if (file == NULL)
    return;
  cgofuzz_values vs = {0};
  cgofuzz_err err = {0};
  if (cgofuzz_codec_decode_v(file, n, gover, &vs, &err) != 0) {
    put("err");
  } else {
    put("ok\t");
    put_vals(vs.v, vs.n);
  }
  cgofuzz_values_free(&vs);
  free(file);
}

static void do_enc(char **f) {
  cgofuzz_values vs = {0};
  if (parse_vals(f[1], &vs) == 0) {
    cgofuzz_buf b = {0};
    cgofuzz_err err = {0};
    if (cgofuzz_codec_encode_v(vs.v, vs.n, gover, &b, &err) != 0) {
      put("panic");
    } else {
      put("ok\t");
      puthex(b.data, b.len);
    }
    cgofuzz_buf_free(&b);
  }
  cgofuzz_values_free(&vs);
}

static void do_mut(char **f) {
  uint64_t state = u64s(f[1]), inc = u64s(f[2]), k = u64s(f[3]);
  size_t max_bytes = (size_t)u64s(f[4]);
  cgofuzz_values vs = {0};
  if (bad_request != NULL || parse_vals(f[5], &vs) != 0) {
    cgofuzz_values_free(&vs);
    return;
  }
  cgofuzz_mutator m;
  cgofuzz_mutator_init(&m, state, inc);
  cgofuzz_err err = {0};
  int rc = 0;
  for (uint64_t i = 0; i < k && rc == 0; i++)
    rc = cgofuzz_mutate(&m, vs.v, vs.n, max_bytes, &err);
  if (rc != 0) {
    put("panic");
  } else {
    put("ok\t");
    put_vals(vs.v, vs.n);
    put("\t");
    putx(m.r.state);
    put("\t");
    putx(m.r.inc);
    /* The mutated values as the corpus file the release writes. */
    cgofuzz_buf b = {0};
    put("\t");
    if (cgofuzz_codec_encode_v(vs.v, vs.n, gover, &b, &err) != 0)
      put("panic");
    else
      puthex(b.data, b.len);
    cgofuzz_buf_free(&b);
  }
  /* Values may borrow the scratch buffer: release them before it goes. */
  cgofuzz_values_free(&vs);
  cgofuzz_mutator_free(&m);
}

/* ---- min ----------------------------------------------------------------- */

#define FNV_INIT 14695981039346656037ULL
#define FNV_PRIME 1099511628211ULL

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= FNV_PRIME;
  }
  return h;
}

enum { P_ALL, P_SUB, P_HASH, P_FIRST, P_LEN };

typedef struct term {
  int op;
  uint64_t num;
  uint8_t *bytes;
  size_t nbytes;
} term;

typedef struct min_ctx {
  term terms[16];
  size_t nterms;
  uint64_t tries, limit, hash;
} min_ctx;

static bool contains(const uint8_t *h, size_t hn, const uint8_t *x, size_t xn) {
  if (xn == 0)
    return true;
  for (size_t i = 0; i + xn <= hn; i++)
    if (memcmp(h + i, x, xn) == 0)
      return true;
  return false;
}

static bool holds(const term *t, const uint8_t *c, size_t n) {
  switch (t->op) {
  case P_ALL:
    for (size_t i = 0; i < t->nbytes; i++)
      if (n == 0 || memchr(c, t->bytes[i], n) == NULL)
        return false;
    return true;
  case P_SUB:
    return n >= t->num && contains(c, n, t->bytes, t->nbytes);
  case P_HASH:
    return fnv(FNV_INIT, c, n) % t->num != 0;
  case P_FIRST:
    return n > 0 && c[0] == (uint8_t)t->num;
  case P_LEN:
    return n >= t->num;
  }
  return false;
}

static bool min_try(void *vctx, const uint8_t *cand, size_t n) {
  min_ctx *ctx = vctx;
  uint8_t l[8];
  ctx->tries++;
  for (int i = 0; i < 8; i++)
    l[i] = (uint8_t)((uint64_t)n >> (8 * i));
  ctx->hash = fnv(fnv(ctx->hash, l, 8), cand, n);
  for (size_t i = 0; i < ctx->nterms; i++)
    if (!holds(&ctx->terms[i], cand, n))
      return false;
  return true;
}

static bool min_stop(void *vctx) {
  min_ctx *ctx = vctx;
  return ctx->limit != 0 && ctx->tries >= ctx->limit;
}

static void do_min(char **f) {
  min_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.hash = FNV_INIT;
  ctx.limit = u64s(f[3]);
  size_t n = 0;
  uint8_t *v = unhex(f[1], strlen(f[1]), &n);
  if (v == NULL)
    return;
  char *terms[17];
  size_t nt = split(f[2], '+', terms, 16);
  if (nt > 16)
    bad_request = "too many terms";
  for (size_t i = 0; i < nt && bad_request == NULL; i++) {
    term *t = &ctx.terms[ctx.nterms++];
    char *a[4];
    size_t na = split(terms[i], ':', a, 3);
    if (strcmp(a[0], "all") == 0 && na == 2) {
      t->op = P_ALL;
      t->bytes = unhex(a[1], strlen(a[1]), &t->nbytes);
    } else if (strcmp(a[0], "sub") == 0 && na == 3) {
      t->op = P_SUB;
      t->num = u64s(a[1]);
      t->bytes = unhex(a[2], strlen(a[2]), &t->nbytes);
    } else if (strcmp(a[0], "hash") == 0 && na == 2) {
      t->op = P_HASH;
      t->num = u64s(a[1]);
      if (t->num == 0)
        bad_request = "hash:0";
    } else if (strcmp(a[0], "first") == 0 && na == 2) {
      t->op = P_FIRST;
      t->num = u64s(a[1]);
    } else if (strcmp(a[0], "len") == 0 && na == 2) {
      t->op = P_LEN;
      t->num = u64s(a[1]);
    } else {
      bad_request = "bad predicate";
    }
  }
  if (bad_request == NULL) {
    size_t r = cgofuzz_minimize_bytes(v, n, min_try, min_stop, &ctx);
    if (r == (size_t)-1) {
      put("oom");
    } else {
      put("ok\t");
      putx(ctx.tries);
      put("\t");
      putx(ctx.hash);
      put("\t");
      puthex(v, r);
    }
  }
  for (size_t i = 0; i < ctx.nterms; i++)
    free(ctx.terms[i].bytes);
  free(v);
}

/* ---- pcg / seed ---------------------------------------------------------- */

static void do_pcg(char **f) {
  cgofuzz_pcg r;
  cgofuzz_pcg_restore(&r, u64s(f[1]), u64s(f[2]));
  put("ok\t");
  bool first = true;
  char *save = NULL;
  for (char *op = strtok_r(f[3], " ", &save); op != NULL;
       op = strtok_r(NULL, " ", &save)) {
    if (!first)
      put(" ");
    first = false;
    if (strcmp(op, "u") == 0) {
      putx(cgofuzz_pcg_u32(&r));
    } else if (strcmp(op, "b") == 0) {
      put(cgofuzz_pcg_bool(&r) ? "1" : "0");
    } else if (op[0] == 'n') {
      putx(cgofuzz_pcg_u32n(&r, (uint32_t)u64s(op + 1)));
    } else {
      bad_request = "bad pcg op";
      return;
    }
  }
  put("\t");
  putx(r.state);
  put("\t");
  putx(r.inc);
}

static void do_seed(char **f) {
  cgofuzz_pcg r;
  cgofuzz_pcg_seed(&r, u64s(f[1]), u64s(f[2]));
  put("ok\t");
  putx(r.state);
  put("\t");
  putx(r.inc);
}

/* ---- wire ---------------------------------------------------------------- */

/* "-" is a nil []byte, "=hex" a present one. */
static cgofuzz_wire_bytes opt_bytes(const char *s) {
  cgofuzz_wire_bytes b = {0};
  if (strcmp(s, "-") == 0)
    return b;
  if (s[0] != '=') {
    bad_request = "bad bytes token";
    return b;
  }
  b.data = unhex(s + 1, strlen(s + 1), &b.len);
  b.has = b.data != NULL;
  return b;
}

/* Strings travel as "=hex"; a string holding NUL cannot be a C string. */
/* A string field; *len gets its length, which may count NUL bytes. */
static char *opt_str(const char *s, size_t *len) {
  cgofuzz_wire_bytes b = opt_bytes(s);
  *len = b.len;
  if (!b.has)
    return NULL;
  b.data[b.len] = 0; /* unhex leaves room for it */
  return (char *)b.data;
}

static void put_bytes(const cgofuzz_wire_bytes *b) {
  if (!b->has) {
    put("-");
    return;
  }
  put("=");
  puthex(b->data, b->len);
}

static void put_str(const char *s, size_t len) {
  put("=");
  if (s != NULL)
    puthex((const uint8_t *)s, len);
}

static void do_wenc(char **f) {
  char *a[8];
  size_t na = split(f[2], ' ', a, 7);
  if (na == 1 && a[0][0] == 0)
    na = 0;
  cgofuzz_buf b = {0};
  int rc = -1;
  if (strcmp(f[1], "ping") == 0) {
    cgofuzz_call c = {0};
    c.kind = CGOFUZZ_CALL_PING;
    rc = cgofuzz_wire_encode_call(&c, &b);
  } else if (strcmp(f[1], "fuzz") == 0 && na == 4) {
    cgofuzz_call c = {0};
    c.kind = CGOFUZZ_CALL_FUZZ;
    c.fuzz.timeout_ns = (int64_t)u64s(a[0]);
    c.fuzz.limit = (int64_t)u64s(a[1]);
    c.fuzz.warmup = strcmp(a[2], "1") == 0;
    c.fuzz.coverage_data = opt_bytes(a[3]);
    if (bad_request == NULL)
      rc = cgofuzz_wire_encode_call(&c, &b);
    free(c.fuzz.coverage_data.data);
  } else if (strcmp(f[1], "minimize") == 0 && na == 4) {
    cgofuzz_call c = {0};
    c.kind = CGOFUZZ_CALL_MINIMIZE;
    c.minimize.timeout_ns = (int64_t)u64s(a[0]);
    c.minimize.limit = (int64_t)u64s(a[1]);
    c.minimize.keep_coverage = opt_bytes(a[2]);
    c.minimize.index = (int64_t)u64s(a[3]);
    if (bad_request == NULL)
      rc = cgofuzz_wire_encode_call(&c, &b);
    free(c.minimize.keep_coverage.data);
  } else if (strcmp(f[1], "fuzzresp") == 0 && na == 6) {
    cgofuzz_fuzz_resp r = {0};
    r.total_duration_ns = (int64_t)u64s(a[0]);
    r.interesting_duration_ns = (int64_t)u64s(a[1]);
    r.count = (int64_t)u64s(a[2]);
    r.coverage_data = opt_bytes(a[3]);
    r.err = opt_str(a[4], &r.err_len);
    r.internal_err = opt_str(a[5], &r.internal_err_len);
    if (bad_request == NULL)
      rc = cgofuzz_wire_encode_fuzz_resp_v(&r, gover, &b);
    free(r.coverage_data.data);
    free(r.err);
    free(r.internal_err);
  } else if (strcmp(f[1], "minresp") == 0 && na == 5) {
    cgofuzz_minimize_resp r = {0};
    r.wrote_to_mem = strcmp(a[0], "1") == 0;
    r.err = opt_str(a[1], &r.err_len);
    r.coverage_data = opt_bytes(a[2]);
    r.duration_ns = (int64_t)u64s(a[3]);
    r.count = (int64_t)u64s(a[4]);
    if (bad_request == NULL)
      rc = cgofuzz_wire_encode_minimize_resp_v(&r, gover, &b);
    free(r.coverage_data.data);
    free(r.err);
  } else if (strcmp(f[1], "pingresp") == 0) {
    rc = cgofuzz_wire_encode_ping_resp(&b);
  } else {
    bad_request = "bad wire type";
  }
  if (bad_request == NULL) {
    if (rc != 0) {
      put("err");
    } else {
      put("ok\t");
      puthex(b.data, b.len);
    }
  }
  cgofuzz_buf_free(&b);
}

static void do_wdec(char **f) {
  size_t n = 0;
  uint8_t *msg = unhex(f[2], strlen(f[2]), &n);
  if (msg == NULL)
    return;
  cgofuzz_err err = {0};
  if (strcmp(f[1], "call") == 0) {
    cgofuzz_call c;
    memset(&c, 0, sizeof c);
    if (cgofuzz_wire_decode_call(msg, n, &c, &err) != 0) {
      put("err");
    } else {
      put("ok\t");
      switch (c.kind) {
      case CGOFUZZ_CALL_FUZZ:
        put("fuzz ");
        putx((uint64_t)c.fuzz.timeout_ns);
        put(" ");
        putx((uint64_t)c.fuzz.limit);
        put(c.fuzz.warmup ? " 1 " : " 0 ");
        put_bytes(&c.fuzz.coverage_data);
        break;
      case CGOFUZZ_CALL_MINIMIZE:
        put("minimize ");
        putx((uint64_t)c.minimize.timeout_ns);
        put(" ");
        putx((uint64_t)c.minimize.limit);
        put(" ");
        put_bytes(&c.minimize.keep_coverage);
        put(" ");
        putx((uint64_t)c.minimize.index);
        break;
      case CGOFUZZ_CALL_PING:
        put("ping");
        break;
      default:
        put("none");
        break;
      }
      cgofuzz_call_free(&c);
    }
  } else if (strcmp(f[1], "fuzzresp") == 0) {
    cgofuzz_fuzz_resp r;
    memset(&r, 0, sizeof r);
    if (cgofuzz_wire_decode_fuzz_resp(msg, n, &r, &err) != 0) {
      put("err");
    } else {
      put("ok\t");
      putx((uint64_t)r.total_duration_ns);
      put(" ");
      putx((uint64_t)r.interesting_duration_ns);
      put(" ");
      putx((uint64_t)r.count);
      put(" ");
      put_bytes(&r.coverage_data);
      put(" ");
      put_str(r.err, r.err_len);
      put(" ");
      put_str(r.internal_err, r.internal_err_len);
      cgofuzz_fuzz_resp_free(&r);
    }
  } else if (strcmp(f[1], "minresp") == 0) {
    cgofuzz_minimize_resp r;
    memset(&r, 0, sizeof r);
    if (cgofuzz_wire_decode_minimize_resp(msg, n, &r, &err) != 0) {
      put("err");
    } else {
      put("ok\t");
      put(r.wrote_to_mem ? "1 " : "0 ");
      put_str(r.err, r.err_len);
      put(" ");
      put_bytes(&r.coverage_data);
      put(" ");
      putx((uint64_t)r.duration_ns);
      put(" ");
      putx((uint64_t)r.count);
      cgofuzz_minimize_resp_free(&r);
    }
  } else if (strcmp(f[1], "pingresp") == 0) {
    put(cgofuzz_wire_decode_ping_resp(msg, n, &err) != 0 ? "err" : "ok");
  } else {
    bad_request = "bad wire type";
  }
  free(msg);
}

/* ---- main loop ----------------------------------------------------------- */

typedef struct handler {
  const char *name;
  size_t nfields;
  void (*fn)(char **f);
} handler;

static const handler handlers[] = {
    {"dec", 2, do_dec},   {"enc", 2, do_enc},   {"mut", 6, do_mut},
    {"min", 4, do_min},   {"pcg", 4, do_pcg},   {"seed", 3, do_seed},
    {"wenc", 3, do_wenc}, {"wdec", 3, do_wdec},
};

static void handle(char *line) {
  char *f[8];
  size_t n = split(line, '\t', f, 7);
  bad_request = NULL;
  out.len = 0;
  const handler *h = NULL;
  for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
    if (strcmp(f[0], handlers[i].name) == 0)
      h = &handlers[i];
  if (h == NULL)
    bad_request = "unknown request";
  else if (n != h->nfields)
    bad_request = "wrong field count";
  else
    h->fn(f);
  if (bad_request != NULL) {
    out.len = 0;
    put("badreq\t");
    put(bad_request);
  }
  put("\n");
  fwrite(out.data, 1, out.len, stdout);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "-go") == 0) {
    if (cgofuzz_gover_parse(argv[2], strlen(argv[2]), &gover) != 0 ||
        !cgofuzz_gover_known(gover)) {
      fprintf(stderr, "cdriver: -go %s: want 1.%d ... 1.%d\n", argv[2],
              CGOFUZZ_GOVER_OLDEST, CGOFUZZ_GOVER_NEWEST);
      return 2;
    }
  } else if (argc != 1) {
    fprintf(stderr, "usage: cgofuzz_cdriver [-go 1.N]\n");
    return 2;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, stdin)) > 0) {
    if (line[n - 1] == '\n')
      line[n - 1] = 0;
    handle(line);
  }
  free(line);
  cgofuzz_buf_free(&out);
  if (fflush(stdout) != 0)
    return 2;
  return 0;
}
