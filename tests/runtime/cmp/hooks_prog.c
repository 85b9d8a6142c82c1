/*
 * hooks_prog.c: calls memcmp, bcmp, strcmp, strncmp, strcasecmp,
 * strncasecmp, strstr, strcasestr and memmem with recording on, from this
 * program and from two libraries it links (cmplib.c, built by plain clang
 * -O2 without cgofuzz's flags, once static and once shared), and after each
 * call prints what it added to the table of recent compares
 * (csrc/runtime/torc.c), one entry a line:
 *   <call> <fn> <a as hex or -> <b as hex>
 * tests/runtime/cmp/test_cmp.py builds it with `cgofuzz cc`, with and without
 * ASan (ASan's interceptors calling the weak hooks vs libcgofuzz_interceptors),
 * and checks every call's operands. Operands are built at run time (argv[1]
 * is appended), so the compiler knows none of them.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "runtime.h"

int cmplib_static_memcmp(const char *x);
int cmplib_static_strcmp(const char *x);
int cmplib_static_strncasecmp(const char *x);
int cmplib_static_strstr(const char *x);
int cmplib_shared_memcmp(const char *x);
int cmplib_shared_strcmp(const char *x);
int cmplib_shared_strncasecmp(const char *x);
int cmplib_shared_strstr(const char *x);

static char in[64], key[64];
static volatile long sink;

static void make(const char *tag, const char *x) {
  snprintf(in, sizeof in, "in-%s-%s", tag, x);
  snprintf(key, sizeof key, "KEY-%s-%s", tag, x);
}

/* Runs expr with recording on, then prints the fresh TORC entries. */
#define CALL(name, expr)                                                       \
  do {                                                                         \
    cgofuzz_cmp_reset_();                                                      \
    cgofuzz_cmp_on_ = CGOFUZZ_CMP_REC;                                         \
    sink += (long)(expr);                                                      \
    cgofuzz_cmp_on_ = 0;                                                       \
    dump(name);                                                                \
  } while (0)

static void hex(const uint8_t *p, size_t n) {
  if (!n)
    printf(" -");
  else
    printf(" ");
  for (size_t k = 0; k < n; k++)
    printf("%02x", p[k]);
}

static void dump(const char *name) {
  for (size_t i = 0; i < CGOFUZZ_TORC_N; i++) {
    const cgofuzz_torc_entry_ *e = &cgofuzz_torc_table_.e[i];
    if (e->gen != cgofuzz_torc_table_.gen)
      continue;
    printf("%s %d", name, e->fn);
    hex(e->a, e->alen);
    hex(e->b, e->blen);
    printf("\n");
  }
}

int main(int argc, char **argv) {
  const char *x = argc > 1 ? argv[1] : "x";
  make("memcmp", x);
  CALL("memcmp", memcmp(in, key, strlen(in)));
  make("bcmp", x);
  CALL("bcmp", bcmp(in, key, strlen(in)));
  make("strcmp", x);
  CALL("strcmp", strcmp(in, key));
  make("strncmp", x);
  CALL("strncmp", strncmp(in, key, strlen(key)));
  make("strcasecmp", x);
  CALL("strcasecmp", strcasecmp(in, key));
  make("strncasecmp", x);
  CALL("strncasecmp", strncasecmp(in, key, strlen(key)));
  make("strstr", x);
  CALL("strstr", strstr(in, key) != NULL);
  make("strcasestr", x);
  CALL("strcasestr", strcasestr(in, key) != NULL);
  make("memmem", x);
  CALL("memmem", memmem(in, strlen(in), key, strlen(key)) != NULL);
  CALL("static_memcmp", cmplib_static_memcmp(x));
  CALL("static_strcmp", cmplib_static_strcmp(x));
  CALL("static_strncasecmp", cmplib_static_strncasecmp(x));
  CALL("static_strstr", cmplib_static_strstr(x));
  CALL("shared_memcmp", cmplib_shared_memcmp(x));
  CALL("shared_strcmp", cmplib_shared_strcmp(x));
  CALL("shared_strncasecmp", cmplib_shared_strncasecmp(x));
  CALL("shared_strstr", cmplib_shared_strstr(x));
  /* Equal operands teach nothing: no entry. */
  make("equal", x);
  CALL("equal", memcmp(in, in, strlen(in)));
  /* Recording off: no entry, whatever the operands. */
  cgofuzz_cmp_reset_();
  sink += memcmp(in, key, strlen(in));
  dump("off");
  /* The functions still answer as libc's. */
  static char hello[] = "HeLLo, world";
  int ok = memcmp("abc", "abd", 3) < 0 && memcmp("abd", "abc", 3) > 0 &&
           memcmp("abc", "abc", 3) == 0 && bcmp("abc", "abd", 3) != 0 &&
           bcmp("abc", "abc", 3) == 0 && strcmp("b", "a") > 0 &&
           strcmp("same", "same") == 0 && strncmp("abcx", "abcy", 3) == 0 &&
           strncmp("abcx", "abcy", 4) < 0 && strcasecmp("ABC", "abc") == 0 &&
           strcasecmp("ABC", "abd") < 0 && strncasecmp("ABx", "aby", 2) == 0 &&
           strstr(hello, "world") == hello + 7 && !strstr(hello, "xyz") &&
           strcasestr(hello, "hello") == hello &&
           memmem(hello, sizeof hello - 1, "LLo", 3) == hello + 2 &&
           !memmem(hello, sizeof hello - 1, "lLo", 3);
  printf("results %s\n", ok ? "ok" : "BAD");
  return 0;
}
