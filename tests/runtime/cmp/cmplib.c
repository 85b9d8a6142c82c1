/*
 * cmplib.c: a library compiled by plain clang -O2 (builtins on, no
 * instrumentation), as a system library would be; tests/runtime/cmp builds it
 * as libcmplib_static.a (-DLIB=static) and libcmplib_shared.so
 * (-DLIB=shared). Its comparisons must still reach the table of recent
 * compares. Sizes are not constants (strlen of run-time strings), so clang
 * keeps the calls it would otherwise expand.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define STR2(s) #s
#define STR(s) STR2(s)
#define FN(name) CAT(CAT(cmplib_, LIB), CAT(_, name))
#define TAG(name) "-" STR(LIB) "-" #name

int FN(memcmp)(const char *x);
int FN(strcmp)(const char *x);
int FN(strncasecmp)(const char *x);
int FN(strstr)(const char *x);

static char in[64], key[64];

static void make(const char *tag, const char *x) {
  snprintf(in, sizeof in, "in%s%s", tag, x);
  snprintf(key, sizeof key, "KEY%s%s", tag, x);
}

int FN(memcmp)(const char *x) {
  make(TAG(memcmp), x);
  return memcmp(in, key, strlen(in));
}

int FN(strcmp)(const char *x) {
  make(TAG(strcmp), x);
  return strcmp(in, key);
}

int FN(strncasecmp)(const char *x) {
  make(TAG(strncasecmp), x);
  return strncasecmp(in, key, strlen(key));
}

int FN(strstr)(const char *x) {
  make(TAG(strstr), x);
  return strstr(in, key) != NULL;
}
