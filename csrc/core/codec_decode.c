/*
 * codec_decode.c: corpus file -> values, as internal/fuzz's
 * unmarshalCorpusFile and parseCorpusValue decide.
 *
 * The file is split on '\n'; the first line, less one trailing '\r', must
 * be the header; every other line is trimmed of Unicode white space,
 * skipped if empty, and otherwise must scan without error and form the
 * token shape
 *
 *   fun ( [unary-op] operand [...] [,] )
 *   fun = ident | ident . ident | [ ] ident
 *
 * (comments anywhere; an explicit ';' is an error, as Go's parser only
 * swallows the semicolon it inserts itself). Anything else Go would either
 * fail to parse or refuse as the wrong kind of expression. The checks
 * after that mirror parseCorpusValue in order, so the first failing check
 * names the same reason Go gives.
 */
#include "codec.h"
#include "codec_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A reason for rejecting a line; the caller adds the line itself. */
typedef struct reason {
  char msg[256];
} reason;

static int why(reason *r, const char *fmt, const char *arg) {
  snprintf(r->msg, sizeof r->msg, fmt, arg);
  return -1;
}

static bool tok_is(const uint8_t *s, const cgofuzz_token *t, const char *w) {
  size_t n = strlen(w);
  return t->tok == CGOFUZZ_T_IDENT && t->len == n &&
         memcmp(s + t->off, w, n) == 0;
}

/* The operand with its optional minus sign, as parseCorpusValue builds
 * "val": a contiguous copy in val[], plus the token kind. */
typedef struct operand {
  cgofuzz_tok kind; /* literal kind; FLOAT for Inf/NaN */
  char *val;
  size_t len;
} operand;

static const char *num_err(int rc) {
  return rc == CGOFUZZ_NUM_RANGE ? "value out of range" : "invalid syntax";
}

static int int_value(const operand *o, cgofuzz_kind k, cgofuzz_value *v,
                     reason *r) {
  static const int bits[CGOFUZZ_NKINDS] = {
      [CGOFUZZ_INT] = 64,    [CGOFUZZ_INT8] = 8,    [CGOFUZZ_INT16] = 16,
      [CGOFUZZ_INT32] = 32,  [CGOFUZZ_INT64] = 64,  [CGOFUZZ_UINT] = 64,
      [CGOFUZZ_UINT8] = 8,   [CGOFUZZ_UINT16] = 16, [CGOFUZZ_UINT32] = 32,
      [CGOFUZZ_UINT64] = 64,
  };
  bool sgn = k >= CGOFUZZ_INT && k <= CGOFUZZ_INT64;
  int rc = sgn ? cgofuzz_parse_int(o->val, o->len, bits[k], &v->i)
               : cgofuzz_parse_uint(o->val, o->len, bits[k], &v->u);
  if (rc != CGOFUZZ_NUM_OK) {
    snprintf(r->msg, sizeof r->msg, "strconv.%s: parsing %.*s: %s",
             sgn ? "ParseInt" : "ParseUint", 200, o->val, num_err(rc));
    return -1;
  }
  v->kind = k;
  return 0;
}

static int float_value(const operand *o, bool is32, cgofuzz_value *v,
                       reason *r) {
  int rc = is32 ? cgofuzz_numfmt_parse_float32(o->val, o->len, &v->f32)
                : cgofuzz_numfmt_parse_float64(o->val, o->len, &v->f64);
  if (rc != CGOFUZZ_NUM_OK) {
    snprintf(r->msg, sizeof r->msg, "strconv.ParseFloat: parsing %.*s: %s", 200,
             o->val, num_err(rc));
    return -1;
  }
  v->kind = is32 ? CGOFUZZ_FLOAT32 : CGOFUZZ_FLOAT64;
  return 0;
}

static int string_value(const uint8_t *lit, size_t n, cgofuzz_kind k,
                        cgofuzz_value *v, reason *r) {
  cgofuzz_buf b = {0};
  int rc = cgofuzz_unquote(lit, n, &b);
  if (rc == 0 && !b.data && cgofuzz_buf_reserve(&b, 1) < 0)
    rc = -2;
  if (rc < 0) {
    cgofuzz_buf_free(&b);
    return why(r, "%s", rc == -2 ? "out of memory" : "invalid syntax");
  }
  v->kind = k;
  v->flags = CGOFUZZ_VAL_OWNED;
  v->s.data = b.data;
  v->s.len = b.len;
  return 0;
}

/* The typed checks of parseCorpusValue once fun and operand are known. */
static int typed_value(const char *typ, const operand *o, cgofuzz_value *v,
                       reason *r) {
  cgofuzz_kind k;
  if (strcmp(typ, "string") == 0) {
    if (o->kind != CGOFUZZ_T_STRING)
      return why(r, "%s", "string literal value required for type string");
    return string_value((const uint8_t *)o->val, o->len, CGOFUZZ_STRING, v, r);
  }
  if (strcmp(typ, "byte") == 0 || strcmp(typ, "rune") == 0) {
    bool rune = typ[0] == 'r';
    if (o->kind == CGOFUZZ_T_INT)
      return int_value(o, rune ? CGOFUZZ_INT32 : CGOFUZZ_UINT8, v, r);
    if (o->kind != CGOFUZZ_T_CHAR)
      return why(r, "%s", "character literal required for byte/rune types");
    int32_t c;
    /* The body between the quotes; a leading '-' leaves a quote first,
     * which UnquoteChar rejects, as in Go. */
    if (cgofuzz_unquote_char((const uint8_t *)o->val + 1, o->len - 2, &c) < 0)
      return why(r, "%s", "invalid syntax");
    if (rune) {
      v->kind = CGOFUZZ_INT32;
      v->i = c;
      return 0;
    }
    if (c >= 256)
      return why(r, "%s", "can only encode single byte to a byte type");
    v->kind = CGOFUZZ_UINT8;
    v->u = (uint64_t)c;
    return 0;
  }
  if (strcmp(typ, "float32") == 0 || strcmp(typ, "float64") == 0) {
    if (o->kind != CGOFUZZ_T_FLOAT && o->kind != CGOFUZZ_T_INT)
      return why(r, "float or integer literal required for %s type", typ);
    return float_value(o, typ[5] == '3', v, r);
  }
  if (strcmp(typ, "float32-bits") == 0 || strcmp(typ, "float64-bits") == 0) {
    bool is32 = typ[5] == '3';
    /* Go lets a float literal through for Float64frombits only; ParseUint
     * then rejects it. */
    if (o->kind != CGOFUZZ_T_INT && (is32 || o->kind != CGOFUZZ_T_FLOAT))
      return why(r, "integer literal required for math.Float%sfrombits type",
                 is32 ? "32" : "64");
    cgofuzz_value bits;
    if (int_value(o, is32 ? CGOFUZZ_UINT32 : CGOFUZZ_UINT64, &bits, r) < 0)
      return -1;
    if (is32) {
      uint32_t b = (uint32_t)bits.u;
      memcpy(&v->f32, &b, 4);
    } else {
      memcpy(&v->f64, &bits.u, 8);
    }
    v->kind = is32 ? CGOFUZZ_FLOAT32 : CGOFUZZ_FLOAT64;
    return 0;
  }
  if (cgofuzz_kind_parse(typ, &k) == 0 && k >= CGOFUZZ_INT &&
      k <= CGOFUZZ_UINT64) {
    bool sgn = k <= CGOFUZZ_INT64;
    if (o->kind != CGOFUZZ_T_INT)
      return why(r, "integer literal required for %s types",
                 sgn ? "int" : "uint");
    return int_value(o, k, v, r);
  }
  return why(r, "%s", "expected []byte or primitive type");
}

/* Matches the token shape; sets the index of fun's last token, of the
 * optional unary operator (or -1) and of the operand. */
static int shape(const cgofuzz_scan *sc, size_t *fun_end, long *op, size_t *arg,
                 reason *r) {
  const cgofuzz_token *t = sc->t;
  size_t n = sc->n, i;
  if (sc->truncated)
    return why(r, "%s", "expected call expression");
  for (i = 0; i < n; i++)
    if (t[i].tok == CGOFUZZ_T_SEMICOLON)
      return why(r, "%s", "unexpected ';'");
  if (n >= 1 && t[0].tok == CGOFUZZ_T_IDENT) {
    i = 1;
    if (n >= 3 && t[1].tok == CGOFUZZ_T_PERIOD && t[2].tok == CGOFUZZ_T_IDENT)
      i = 3;
  } else if (n >= 3 && t[0].tok == CGOFUZZ_T_LBRACK &&
             t[1].tok == CGOFUZZ_T_RBRACK && t[2].tok == CGOFUZZ_T_IDENT) {
    i = 3;
  } else if (n >= 1 && t[0].tok == CGOFUZZ_T_LBRACK) {
    return why(r, "%s", "expected []byte or primitive type");
  } else {
    return why(r, "%s", "expected call expression");
  }
  *fun_end = i - 1;
  if (i >= n || t[i].tok != CGOFUZZ_T_LPAREN)
    return why(r, "%s", "expected call expression");
  i++;
  *op = -1;
  if (i < n && t[i].tok == CGOFUZZ_T_UNARY)
    *op = (long)i++;
  if (i >= n)
    return why(r, "%s", "expected operand");
  switch (t[i].tok) {
  case CGOFUZZ_T_IDENT:
  case CGOFUZZ_T_INT:
  case CGOFUZZ_T_FLOAT:
  case CGOFUZZ_T_IMAG:
  case CGOFUZZ_T_CHAR:
  case CGOFUZZ_T_STRING:
    break;
  case CGOFUZZ_T_RPAREN:
    if (*op < 0 && i + 1 == n)
      return why(r, "%s", "expected call expression with 1 argument; got 0");
    return why(r, "%s", "expected operand");
  default:
    return why(r, "%s", "literal value required for primitive type");
  }
  *arg = i++;
  if (i < n && t[i].tok == CGOFUZZ_T_ELLIPSIS)
    i++;
  if (i < n && t[i].tok == CGOFUZZ_T_COMMA)
    i++;
  if (i + 1 != n || t[i].tok != CGOFUZZ_T_RPAREN)
    return why(r, "%s", "expected a single literal argument and ')'");
  return 0;
}

static int parse_value(const uint8_t *s, size_t n, cgofuzz_value *v,
                       cgofuzz_gover g, reason *r) {
  cgofuzz_scan sc;
  if (cgofuzz_scan_line(s, n, &sc, r->msg, sizeof r->msg) < 0)
    return -1;
  size_t fe, ai;
  long oi;
  if (shape(&sc, &fe, &oi, &ai, r) < 0)
    return -1;
  const cgofuzz_token *t = sc.t, *arg = &t[ai];
  const cgofuzz_token *op = oi >= 0 ? &t[oi] : NULL;
  if (op && s[op->off] == '~' && !cgofuzz_gover_unary_tilde(g))
    return why(r, "%s", "expected operand"); /* go1.18's parser */
  memset(v, 0, sizeof *v);

  if (t[0].tok == CGOFUZZ_T_LBRACK) { /* []elt(...) */
    if (!tok_is(s, &t[2], "byte"))
      return why(r, "%s", "expected []byte");
    if (op || arg->tok != CGOFUZZ_T_STRING)
      return why(r, "%s", "string literal required for type []byte");
    return string_value(s + arg->off, arg->len, CGOFUZZ_BYTES, v, r);
  }
  const char *typ;
  char name[16];
  if (fe == 2) { /* x.sel(...) */
    if (!tok_is(s, &t[0], "math"))
      return why(r, "%s", "invalid selector type");
    if (tok_is(s, &t[2], "Float64frombits"))
      typ = "float64-bits";
    else if (tok_is(s, &t[2], "Float32frombits"))
      typ = "float32-bits";
    else
      return why(r, "%s", "invalid selector type");
  } else {
    if (t[0].len >= sizeof name)
      typ = "?";
    else {
      memcpy(name, s + t[0].off, t[0].len);
      name[t[0].len] = 0;
      typ = name;
    }
    if (strcmp(typ, "bool") == 0) {
      if (op || arg->tok != CGOFUZZ_T_IDENT)
        return why(r, "%s", "malformed bool");
      v->kind = CGOFUZZ_BOOL;
      if (tok_is(s, arg, "true") || tok_is(s, arg, "false")) {
        v->b = s[arg->off] == 't';
        return 0;
      }
      return why(r, "%s", "true or false required for type bool");
    }
  }

  operand o;
  char small[8];
  if (op) {
    char opname[3] = {0};
    memcpy(opname, s + op->off, op->len);
    if (arg->tok == CGOFUZZ_T_IDENT) {
      if (!tok_is(s, arg, "Inf"))
        return why(r, "%s", "expected operation on int or float type");
      memcpy(small, opname[0] == '-' ? "-Inf" : "+Inf", 5);
      o = (operand){CGOFUZZ_T_FLOAT, small, 4};
      return typed_value(typ, &o, v, r);
    }
    if (opname[0] != '-')
      return why(r, "unsupported operation on int/float: %s", opname);
  } else if (arg->tok == CGOFUZZ_T_IDENT) {
    if (!tok_is(s, arg, "NaN"))
      return why(r, "%s", "literal value required for primitive type");
    memcpy(small, "NaN", 4);
    o = (operand){CGOFUZZ_T_FLOAT, small, 3};
    return typed_value(typ, &o, v, r);
  }
  /* A literal, possibly negated: "-" + its text, as Go concatenates. */
  char *buf = malloc(arg->len + 2);
  if (!buf)
    return why(r, "%s", "out of memory");
  size_t k = 0;
  if (op)
    buf[k++] = '-';
  memcpy(buf + k, s + arg->off, arg->len);
  k += arg->len;
  buf[k] = 0;
  o = (operand){arg->tok, buf, k};
  int rc = typed_value(typ, &o, v, r);
  free(buf);
  return rc;
}

/* "malformed line %q: reason", with a long line shortened. */
static int line_error(cgofuzz_err *err, int lineno, const uint8_t *s, size_t n,
                      const reason *r) {
  cgofuzz_buf q = {0};
  bool cut = n > 120;
  int rc = cgofuzz_quote(s, cut ? 120 : n, &q);
  cgofuzz_errf(err, lineno, "malformed line %.*s%s: %s",
               rc < 0 ? 0 : (int)q.len, q.data ? (const char *)q.data : "",
               cut ? "..." : "", r->msg);
  cgofuzz_buf_free(&q);
  return -1;
}

int cgofuzz_codec_decode_line(const uint8_t *line, size_t len,
                              cgofuzz_value *out, cgofuzz_err *err) {
  reason r;
  cgofuzz_trim_space(&line, &len);
  memset(out, 0, sizeof *out);
  if (parse_value(line, len, out, CGOFUZZ_GOVER_DEFAULT, &r) < 0)
    return line_error(err, 1, line, len, &r);
  return 0;
}

int cgofuzz_codec_decode(const uint8_t *data, size_t len, cgofuzz_values *out,
                         cgofuzz_err *err) {
  return cgofuzz_codec_decode_v(data, len, CGOFUZZ_GOVER_DEFAULT, out, err);
}

int cgofuzz_codec_decode_v(const uint8_t *data, size_t len, cgofuzz_gover g,
                           cgofuzz_values *out, cgofuzz_err *err) {
  cgofuzz_values_clear(out);
  if (len == 0)
    return cgofuzz_errf(err, 0, "cannot unmarshal empty string");
  const uint8_t *nl = memchr(data, '\n', len);
  if (!nl)
    return cgofuzz_errf(err, 0, "must include version and at least one value");
  size_t hl = (size_t)(nl - data);
  if (hl > 0 && data[hl - 1] == '\r' && cgofuzz_gover_header_cr_ok(g))
    hl--;
  size_t want = strlen(CGOFUZZ_CORPUS_HEADER);
  if (hl != want || memcmp(data, CGOFUZZ_CORPUS_HEADER, want) != 0)
    return cgofuzz_errf(err, 1, "unknown encoding version: %.*s",
                        hl > 100 ? 100 : (int)hl, (const char *)data);
  const uint8_t *p = nl + 1, *end = data + len;
  for (int lineno = 2;; lineno++) {
    const uint8_t *e = memchr(p, '\n', (size_t)(end - p));
    if (!e)
      e = end;
    const uint8_t *s = p;
    size_t n = (size_t)(e - p);
    cgofuzz_trim_space(&s, &n);
    if (n > 0) {
      cgofuzz_value v;
      reason r;
      if (parse_value(s, n, &v, g, &r) < 0) {
        cgofuzz_values_clear(out);
        return line_error(err, lineno, s, n, &r);
      }
      /* push copies owned bytes; hand ours over without a copy. */
      int rc = cgofuzz_values_push(out, &(cgofuzz_value){.kind = CGOFUZZ_BOOL});
      if (rc < 0) {
        cgofuzz_value_release(&v);
        cgofuzz_values_clear(out);
        return cgofuzz_errf(err, lineno, "out of memory");
      }
      out->v[out->n - 1] = v;
    }
    if (e == end)
      return 0;
    p = e + 1;
  }
}
