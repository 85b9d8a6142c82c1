/*
 * flags.c: Go's flag syntax for cgofuzz subcommands, so that flags read the
 * same as go test's: -name value, -name=value, one or two dashes, bool
 * flags without a value.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_parse_u64(const char *s, uint64_t *out) {
  int base = 10;
  const char *p = s;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    base = 16;
    p += 2;
  } else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
    base = 2;
    p += 2;
  } else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O')) {
    base = 8;
    p += 2;
  } else if (p[0] == '0' && p[1] != '\0') {
    base = 8;
    p += 1;
  }
  if (*p == '\0' || *p == '-' || *p == '+' || *p == ' ')
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(p, &end, base);
  if (errno != 0 || *end != '\0')
    return -1;
  *out = (uint64_t)v;
  return 0;
}

static int parse_i64(const char *s, int64_t *out) {
  bool neg = s[0] == '-';
  uint64_t u;
  if (cli_parse_u64(neg ? s + 1 : s, &u) != 0)
    return -1;
  if (neg ? u > (uint64_t)INT64_MAX + 1 : u > (uint64_t)INT64_MAX)
    return -1;
  *out = neg ? (int64_t)(0 - u) : (int64_t)u;
  return 0;
}

static int set_value(const char *cmd, cli_flag *f, const char *val) {
  switch (f->type) {
  case FLAG_BOOL:
    if (strcmp(val, "true") == 0 || strcmp(val, "1") == 0 ||
        strcmp(val, "t") == 0 || strcmp(val, "T") == 0 ||
        strcmp(val, "TRUE") == 0 || strcmp(val, "True") == 0) {
      *(bool *)f->dst = true;
    } else if (strcmp(val, "false") == 0 || strcmp(val, "0") == 0 ||
               strcmp(val, "f") == 0 || strcmp(val, "F") == 0 ||
               strcmp(val, "FALSE") == 0 || strcmp(val, "False") == 0) {
      *(bool *)f->dst = false;
    } else {
      goto bad;
    }
    break;
  case FLAG_STRING:
    *(const char **)f->dst = val;
    break;
  case FLAG_U64:
    if (cli_parse_u64(val, (uint64_t *)f->dst) != 0)
      goto bad;
    break;
  case FLAG_I64:
    if (parse_i64(val, (int64_t *)f->dst) != 0)
      goto bad;
    break;
  }
  f->set = true;
  return 0;
bad:
  fprintf(stderr, "cgofuzz %s: invalid value \"%s\" for flag -%s\n", cmd, val,
          f->name);
  return -1;
}

int cli_parse_flags(const char *cmd, cli_flag *flags, size_t nflags, int argc,
                    char **argv) {
  int i = 0;
  while (i < argc) {
    const char *a = argv[i];
    if (a[0] != '-' || a[1] == '\0')
      break; /* first positional argument */
    if (strcmp(a, "--") == 0)
      return i + 1;
    const char *name = a + 1;
    if (name[0] == '-')
      name++;
    if (name[0] == '\0' || name[0] == '-' || name[0] == '=') {
      fprintf(stderr, "cgofuzz %s: bad flag syntax: %s\n", cmd, a);
      return -1;
    }
    const char *eq = strchr(name, '=');
    size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
    cli_flag *f = NULL;
    for (size_t k = 0; k < nflags; k++) {
      if (strlen(flags[k].name) == nlen &&
          strncmp(flags[k].name, name, nlen) == 0) {
        f = &flags[k];
        break;
      }
    }
    if (!f) {
      fprintf(stderr, "cgofuzz %s: flag provided but not defined: -%.*s\n", cmd,
              (int)nlen, name);
      return -1;
    }
    i++;
    const char *val;
    if (eq) {
      val = eq + 1;
    } else if (f->type == FLAG_BOOL) {
      val = "true";
    } else if (i < argc) {
      val = argv[i++];
    } else {
      fprintf(stderr, "cgofuzz %s: flag needs an argument: -%s\n", cmd,
              f->name);
      return -1;
    }
    if (set_value(cmd, f, val) != 0)
      return -1;
  }
  return i;
}

void cli_print_flags(const cli_flag *flags, size_t nflags) {
  for (size_t k = 0; k < nflags; k++) {
    const char *arg = flags[k].type == FLAG_BOOL     ? ""
                      : flags[k].type == FLAG_STRING ? " string"
                                                     : " N";
    fprintf(stderr, "  -%s%s\n    \t%s\n", flags[k].name, arg, flags[k].usage);
  }
}
