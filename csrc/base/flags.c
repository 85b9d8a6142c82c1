/*
 * flags.c: Go's flag package (see flags.h), transcribed from
 * flag.(*FlagSet).parseOne and strconv.ParseBool; integers are strconv.c's
 * ParseInt/ParseUint, so the corner cases (underscores, "0x" alone, range
 * errors, the order of checks) come out as Go's do.
 */
#include "flags.h"

#include <string.h>

#include "strconv.h"
#include "text.h"

static const char parse_error[] = "parse error";
static const char range_error[] = "value out of range";

int cgofuzz_flag_parse_bool(const char *s, bool *out, const char **reason) {
  static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
  static const char *const no[] = {"0", "f", "F", "FALSE", "false", "False"};
  for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
    if (strcmp(s, yes[i]) == 0) {
      *out = true;
      return 0;
    }
    if (strcmp(s, no[i]) == 0) {
      *out = false;
      return 0;
    }
  }
  *reason = parse_error;
  return -1;
}

/* strconv.ParseUint(s, 0, 64) and ParseInt(s, 0, 64) (strconv.c), with
 * the reason texts of Go's *NumError. */
static int num_result(int rc, const char **reason) {
  if (rc == CGOFUZZ_NUM_OK)
    return 0;
  *reason = rc == CGOFUZZ_NUM_RANGE ? range_error : parse_error;
  return -1;
}

int cgofuzz_flag_parse_uint(const char *s, uint64_t *out, const char **reason) {
  uint64_t v;
  if (num_result(cgofuzz_parse_uint(s, strlen(s), 64, &v), reason) != 0)
    return -1;
  *out = v;
  return 0;
}

int cgofuzz_flag_parse_int(const char *s, int64_t *out, const char **reason) {
  int64_t v;
  if (num_result(cgofuzz_parse_int(s, strlen(s), 64, &v), reason) != 0)
    return -1;
  *out = v;
  return 0;
}

int cgofuzz_flag_parse_duration_or_count(const char *s, bool allow_zero,
                                         cgofuzz_flag_dur *out,
                                         const char **reason) {
  size_t n = strlen(s);
  int64_t ns, c;
  if (cgofuzz_parse_duration(s, &ns, &c) != 0 ||
      (!allow_zero && ns == 0 && c == 0)) {
    *reason = n > 0 && s[n - 1] == 'x' ? "invalid count" : "invalid duration";
    return -1;
  }
  *out = (cgofuzz_flag_dur){.text = s, .ns = ns, .count = c};
  return 0;
}

/* Sets f from value; on failure fills why with the reason alone. */
static int set_value(cgofuzz_flag *f, const char *value, cgofuzz_err *why) {
  const char *reason = NULL;
  int rc = 0;
  switch (f->type) {
  case CGOFUZZ_FLAG_BOOL: {
    bool b;
    if ((rc = cgofuzz_flag_parse_bool(value, &b, &reason)) == 0)
      *(bool *)f->dst = b;
    break;
  }
  case CGOFUZZ_FLAG_STRING:
    *(const char **)f->dst = value;
    break;
  case CGOFUZZ_FLAG_INT: {
    int64_t v;
    if ((rc = cgofuzz_flag_parse_int(value, &v, &reason)) == 0)
      *(int64_t *)f->dst = v;
    break;
  }
  case CGOFUZZ_FLAG_UINT: {
    uint64_t v;
    if ((rc = cgofuzz_flag_parse_uint(value, &v, &reason)) == 0)
      *(uint64_t *)f->dst = v;
    break;
  }
  case CGOFUZZ_FLAG_DURATION: {
    /* flag.Duration is time.ParseDuration: any error is errParse. */
    int64_t ns;
    if (cgofuzz_parse_go_duration(value, &ns) != 0) {
      reason = parse_error;
      rc = -1;
    } else {
      *(cgofuzz_flag_dur *)f->dst =
          (cgofuzz_flag_dur){.text = value, .ns = ns, .count = 0};
    }
    break;
  }
  case CGOFUZZ_FLAG_DURATION_OR_COUNT: {
    cgofuzz_flag_dur d;
    if ((rc = cgofuzz_flag_parse_duration_or_count(value, f->allow_zero, &d,
                                                   &reason)) == 0)
      *(cgofuzz_flag_dur *)f->dst = d;
    break;
  }
  case CGOFUZZ_FLAG_FUNC:
  case CGOFUZZ_FLAG_BOOL_FUNC:
    why->msg[0] = '\0';
    rc = f->func(f->dst, value, why);
    if (rc != 0 && why->msg[0] == '\0')
      reason = parse_error;
    break;
  }
  if (rc != 0 && reason)
    cgofuzz_errf(why, 0, "%s", reason);
  return rc;
}

/* err = prefix + %q(value) + middle + name + ": " + why, Go's failf. */
static int fail_value(cgofuzz_err *err, const char *prefix, const char *value,
                      const char *middle, const char *name,
                      const cgofuzz_err *why) {
  cgofuzz_buf q = {0};
  if (cgofuzz_flag_quote(&q, value) != 0 || cgofuzz_buf_putc(&q, 0) != 0) {
    cgofuzz_buf_free(&q);
    return cgofuzz_errf(err, 0, "out of memory");
  }
  cgofuzz_errf(err, 0, "%s%s%s%s: %s", prefix, (const char *)q.data, middle,
               name, why->msg);
  cgofuzz_buf_free(&q);
  return -1;
}

static bool is_help(const char *name, size_t n) {
  return (n == 1 && name[0] == 'h') || (n == 4 && memcmp(name, "help", 4) == 0);
}

int cgofuzz_flags_parse(cgofuzz_flag *flags, size_t nflags, int argc,
                        char **argv, cgofuzz_err *err) {
  for (size_t k = 0; k < nflags; k++)
    flags[k].seen = false;
  int i = 0;
  while (i < argc) {
    const char *s = argv[i];
    if (strlen(s) < 2 || s[0] != '-')
      break;
    const char *name = s + 1;
    if (s[1] == '-') {
      if (s[2] == '\0')
        return i + 1; /* "--" ends the flags and is consumed */
      name++;
    }
    if (name[0] == '\0' || name[0] == '-' || name[0] == '=')
      return cgofuzz_errf(err, 0, "bad flag syntax: %s", s);
    i++;
    /* The first '=' after the name's first byte splits off the value. */
    const char *eq = strchr(name + 1, '=');
    size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
    const char *value = eq ? eq + 1 : NULL;
    cgofuzz_flag *f = NULL;
    for (size_t k = 0; k < nflags && !f; k++)
      if (strlen(flags[k].name) == nlen &&
          memcmp(flags[k].name, name, nlen) == 0)
        f = &flags[k];
    if (!f) {
      if (is_help(name, nlen))
        return CGOFUZZ_FLAGS_HELP;
      return cgofuzz_errf(err, 0, "flag provided but not defined: -%.*s",
                          (int)nlen, name);
    }
    cgofuzz_err why = {0};
    if (f->type == CGOFUZZ_FLAG_BOOL || f->type == CGOFUZZ_FLAG_BOOL_FUNC) {
      /* A bool never takes the next argument: "-v x" is -v then x. */
      if (set_value(f, value ? value : "true", &why) != 0) {
        if (value)
          return fail_value(err, "invalid boolean value ", value, " for -",
                            f->name, &why);
        return cgofuzz_errf(err, 0, "invalid boolean flag %s: %s", f->name,
                            why.msg);
      }
    } else {
      if (!value && i < argc)
        value = argv[i++];
      if (!value)
        return cgofuzz_errf(err, 0, "flag needs an argument: -%s", f->name);
      if (set_value(f, value, &why) != 0)
        return fail_value(err, "invalid value ", value, " for flag -", f->name,
                          &why);
    }
    f->seen = true;
  }
  return i;
}

/* Go's flag.UnquoteUsage: the `quoted` word of usage names the value,
 * else the type does ("" for booleans). Sets the name to [*w, *w + *wl). */
static void unquote_usage(const cgofuzz_flag *f, const char **w, size_t *wl) {
  const char *u = f->usage ? f->usage : "";
  const char *a = strchr(u, '`');
  const char *b = a ? strchr(a + 1, '`') : NULL;
  if (a && b) {
    *w = a + 1;
    *wl = (size_t)(b - a - 1);
    return;
  }
  static const char *const names[] = {
      [CGOFUZZ_FLAG_BOOL] = "",
      [CGOFUZZ_FLAG_STRING] = "string",
      [CGOFUZZ_FLAG_INT] = "int",
      [CGOFUZZ_FLAG_UINT] = "uint",
      [CGOFUZZ_FLAG_DURATION] = "duration",
      [CGOFUZZ_FLAG_DURATION_OR_COUNT] = "value",
      [CGOFUZZ_FLAG_FUNC] = "value",
      [CGOFUZZ_FLAG_BOOL_FUNC] = "",
  };
  *w = names[f->type];
  *wl = strlen(*w);
}

int cgofuzz_flags_usage(cgofuzz_buf *out, const cgofuzz_flag *flags, size_t n) {
  int rc = 0;
  for (size_t k = 0; k < n && rc == 0; k++) {
    const cgofuzz_flag *f = &flags[k];
    const char *w;
    size_t wl;
    unquote_usage(f, &w, &wl);
    size_t start = out->len;
    rc |= cgofuzz_buf_printf(out, "  -%s", f->name);
    if (wl)
      rc |= cgofuzz_buf_printf(out, " %.*s", (int)wl, w);
    /* Go: one-letter bool flags keep their help on the same line. */
    if (out->len - start <= 4)
      rc |= cgofuzz_buf_puts(out, "\t");
    else
      rc |= cgofuzz_buf_puts(out, "\n    \t");
    for (const char *u = f->usage ? f->usage : ""; *u && rc == 0; u++) {
      if (*u == '`')
        continue;
      rc |= *u == '\n' ? cgofuzz_buf_puts(out, "\n    \t")
                       : cgofuzz_buf_putc(out, (uint8_t)*u);
    }
    rc |= cgofuzz_buf_putc(out, '\n');
  }
  return rc ? -1 : 0;
}

/* Runes outside ASCII that unicode.IsPrint rejects and that plausibly end
 * up in a command line: controls, format characters, the spaces other
 * than U+0020, private use, non-characters. Unassigned code points are not
 * tracked (that would take Unicode's tables), so they are kept as is. */
static bool nonprint_rune(int32_t r) {
  return (r >= 0x80 && r <= 0xA0) || r == 0xAD || r == 0x1680 ||
         (r >= 0x2000 && r <= 0x200F) || (r >= 0x2028 && r <= 0x202F) ||
         (r >= 0x205F && r <= 0x206F) || r == 0x3000 ||
         (r >= 0xE000 && r <= 0xF8FF) || r == 0xFEFF ||
         (r >= 0xFFF9 && r <= 0xFFFB) || r == 0xFFFE || r == 0xFFFF ||
         r >= 0xF0000;
}

int cgofuzz_flag_quote(cgofuzz_buf *out, const char *str) {
  const uint8_t *s = (const uint8_t *)str;
  size_t n = strlen(str);
  int rc = cgofuzz_buf_putc(out, '"');
  for (size_t i = 0; i < n && rc == 0;) {
    int32_t r;
    int w = cgofuzz_utf8_decode(s + i, n - i, &r);
    if (r == CGOFUZZ_RUNE_ERROR && w == 1) {
      rc = cgofuzz_buf_printf(out, "\\x%02x", s[i]);
    } else if (r == '"' || r == '\\') {
      rc = cgofuzz_buf_printf(out, "\\%c", (char)r);
    } else if (r >= 0x20 && r < 0x7F) {
      rc = cgofuzz_buf_putc(out, (uint8_t)r);
    } else if (r >= 0x80 && !nonprint_rune(r)) {
      rc = cgofuzz_buf_append(out, s + i, (size_t)w);
    } else {
      const char *esc = NULL;
      switch (r) {
      case '\a':
        esc = "\\a";
        break;
      case '\b':
        esc = "\\b";
        break;
      case '\f':
        esc = "\\f";
        break;
      case '\n':
        esc = "\\n";
        break;
      case '\r':
        esc = "\\r";
        break;
      case '\t':
        esc = "\\t";
        break;
      case '\v':
        esc = "\\v";
        break;
      default:
        break;
      }
      if (esc)
        rc = cgofuzz_buf_puts(out, esc);
      else if (r < 0x20 || r == 0x7F)
        rc = cgofuzz_buf_printf(out, "\\x%02x", (unsigned)r);
      else if (r < 0x10000)
        rc = cgofuzz_buf_printf(out, "\\u%04x", (unsigned)r);
      else
        rc = cgofuzz_buf_printf(out, "\\U%08x", (unsigned)r);
    }
    i += (size_t)w;
  }
  if (rc == 0)
    rc = cgofuzz_buf_putc(out, '"');
  return rc;
}
