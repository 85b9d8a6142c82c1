/*
 * interceptors.c: libcgofuzz_interceptors.a, definitions of memcmp, bcmp,
 * strcmp, strncmp, strcasecmp, strncasecmp, strstr, strcasestr and memmem
 * that call the real function and then report the operands to the
 * sanitizer weak hook of the same name (__sanitizer_weak_hook_*, defined by
 * the runtime, csrc/runtime/torc.c), as libFuzzer's fuzzer_interceptors
 * does for -fsanitize=fuzzer builds without ASan, MSan or TSan (whose own
 * interceptors call the hooks).
 *
 * Not part of libcgofuzz.a (which must define only cgofuzz_ names and the
 * sanitizer hooks): `cgofuzz cc` links it, whole, into executables whose
 * -fsanitize list has none of address, memory and thread. Defined in the
 * executable, these functions also take the calls of the libraries it
 * links, static or shared (the linker exports a definition that overrides
 * a shared library's). tests/check_symbols.sh --interceptors checks that
 * the library defines exactly these names and needs only libc.
 *
 * The real function is found with dlsym(RTLD_NEXT) on first use (and by a
 * constructor). Until then, while the lookup runs (dlsym may itself compare
 * strings) and where it finds nothing (a static executable), a plain C
 * locale implementation here answers. Nothing here, and nothing in the
 * hooks, calls an intercepted function, so nothing recurses; the hooks
 * return at once unless the worker is recording (only while the target
 * runs). They are referenced weakly: without the runtime these are plain
 * forwards. Compiled with -fno-builtin, so the compiler does not turn the
 * fallbacks back into calls of these names.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#define WEAK __attribute__((weak))
void __sanitizer_weak_hook_memcmp(void *called_pc, const void *s1,
                                  const void *s2, size_t n, int result) WEAK;
void __sanitizer_weak_hook_strncmp(void *called_pc, const char *s1,
                                   const char *s2, size_t n, int result) WEAK;
void __sanitizer_weak_hook_strcmp(void *called_pc, const char *s1,
                                  const char *s2, int result) WEAK;
void __sanitizer_weak_hook_strncasecmp(void *called_pc, const char *s1,
                                       const char *s2, size_t n,
                                       int result) WEAK;
void __sanitizer_weak_hook_strcasecmp(void *called_pc, const char *s1,
                                      const char *s2, int result) WEAK;
void __sanitizer_weak_hook_strstr(void *called_pc, const char *s1,
                                  const char *s2, char *result) WEAK;
void __sanitizer_weak_hook_strcasestr(void *called_pc, const char *s1,
                                      const char *s2, char *result) WEAK;
void __sanitizer_weak_hook_memmem(void *called_pc, const void *s1, size_t len1,
                                  const void *s2, size_t len2,
                                  void *result) WEAK;

int memcmp(const void *s1, const void *s2, size_t n);
int bcmp(const void *s1, const void *s2, size_t n);
int strcmp(const char *s1, const char *s2);
int strncmp(const char *s1, const char *s2, size_t n);
int strcasecmp(const char *s1, const char *s2);
int strncasecmp(const char *s1, const char *s2, size_t n);
char *strstr(const char *haystack, const char *needle);
char *strcasestr(const char *haystack, const char *needle);
void *memmem(const void *haystack, size_t hlen, const void *needle,
             size_t nlen);

#define CALLER() __builtin_return_address(0)

/* ---- the fallbacks (C locale) ---- */

static int fb_memcmp(const void *s1, const void *s2, size_t n) {
  const unsigned char *a = s1, *b = s2;
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* strncmp (n: SIZE_MAX for strcmp), case-blind if fold. */
static int fb_strncmp(const char *s1, const char *s2, size_t n, int fold) {
  const unsigned char *a = (const unsigned char *)s1,
                      *b = (const unsigned char *)s2;
  for (size_t i = 0; i < n; i++) {
    int x = fold ? lower(a[i]) : a[i], y = fold ? lower(b[i]) : b[i];
    if (x != y)
      return x < y ? -1 : 1;
    if (!x)
      break;
  }
  return 0;
}

static void *fb_memmem(const void *h, size_t hn, const void *n, size_t nn,
                       int fold) {
  const unsigned char *a = h, *b = n;
  if (nn == 0)
    return (void *)(uintptr_t)h;
  for (size_t i = 0; i + nn <= hn; i++) {
    size_t j = 0;
    while (j < nn && (fold ? lower(a[i + j]) == lower(b[j]) : a[i + j] == b[j]))
      j++;
    if (j == nn)
      return (void *)(uintptr_t)(a + i);
  }
  return NULL;
}

static size_t fb_strlen(const char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

static char *fb_strstr(const char *h, const char *n, int fold) {
  return fb_memmem(h, fb_strlen(h), n, fb_strlen(n), fold);
}

/* ---- the real functions ---- */

typedef int (*mem_fn)(const void *, const void *, size_t);
typedef int (*str_fn)(const char *, const char *);
typedef int (*strn_fn)(const char *, const char *, size_t);
typedef char *(*find_fn)(const char *, const char *);
typedef void *(*memmem_fn)(const void *, size_t, const void *, size_t);

static struct {
  mem_fn memcmp, bcmp;
  str_fn strcmp, strcasecmp;
  strn_fn strncmp, strncasecmp;
  find_fn strstr, strcasestr;
  memmem_fn memmem;
} real;

/* 0: not looked up, 1: being looked up, 2: done. */
static int state;

static void *lookup(const char *name, void *self) {
  void *p = dlsym(RTLD_NEXT, name);
  if (!p)
    p = dlsym(RTLD_DEFAULT, name);
  return p == self ? NULL : p;
}

/* Casts between function and object pointers go through an integer. */
#define LOOKUP(f, T) real.f = (T)(uintptr_t)lookup(#f, (void *)(uintptr_t)f)

static void resolve(void) {
  int expect = 0;
  if (!__atomic_compare_exchange_n(&state, &expect, 1, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE))
    return; /* done, or another call is at it: the fallbacks answer */
  LOOKUP(memcmp, mem_fn);
  LOOKUP(bcmp, mem_fn);
  LOOKUP(strcmp, str_fn);
  LOOKUP(strcasecmp, str_fn);
  LOOKUP(strncmp, strn_fn);
  LOOKUP(strncasecmp, strn_fn);
  LOOKUP(strstr, find_fn);
  LOOKUP(strcasestr, find_fn);
  LOOKUP(memmem, memmem_fn);
  __atomic_store_n(&state, 2, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void init(void) { resolve(); }

/* The real f, or NULL while it is not known. */
#define REAL(f)                                                                \
  (__builtin_expect(__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 2, 1)         \
       ? real.f                                                                \
       : (resolve(),                                                           \
          __atomic_load_n(&state, __ATOMIC_ACQUIRE) == 2 ? real.f : NULL))

/* ---- the interceptors ---- */

/* Each calls the real function (the fallback while it is not known) and
 * then the hook, if the runtime is linked. */
#define HOOK(name, ...)                                                        \
  do {                                                                         \
    if (__sanitizer_weak_hook_##name)                                          \
      __sanitizer_weak_hook_##name(CALLER(), __VA_ARGS__);                     \
  } while (0)

int memcmp(const void *s1, const void *s2, size_t n) {
  mem_fn f = REAL(memcmp);
  int r = f ? f(s1, s2, n) : fb_memcmp(s1, s2, n);
  HOOK(memcmp, s1, s2, n, r);
  return r;
}

int bcmp(const void *s1, const void *s2, size_t n) {
  mem_fn f = REAL(bcmp);
  int r = f ? f(s1, s2, n) : fb_memcmp(s1, s2, n);
  HOOK(memcmp, s1, s2, n, r);
  return r;
}

int strcmp(const char *s1, const char *s2) {
  str_fn f = REAL(strcmp);
  int r = f ? f(s1, s2) : fb_strncmp(s1, s2, SIZE_MAX, 0);
  HOOK(strcmp, s1, s2, r);
  return r;
}

int strncmp(const char *s1, const char *s2, size_t n) {
  strn_fn f = REAL(strncmp);
  int r = f ? f(s1, s2, n) : fb_strncmp(s1, s2, n, 0);
  HOOK(strncmp, s1, s2, n, r);
  return r;
}

int strcasecmp(const char *s1, const char *s2) {
  str_fn f = REAL(strcasecmp);
  int r = f ? f(s1, s2) : fb_strncmp(s1, s2, SIZE_MAX, 1);
  HOOK(strcasecmp, s1, s2, r);
  return r;
}

int strncasecmp(const char *s1, const char *s2, size_t n) {
  strn_fn f = REAL(strncasecmp);
  int r = f ? f(s1, s2, n) : fb_strncmp(s1, s2, n, 1);
  HOOK(strncasecmp, s1, s2, n, r);
  return r;
}

char *strstr(const char *haystack, const char *needle) {
  find_fn f = REAL(strstr);
  char *r = f ? f(haystack, needle) : fb_strstr(haystack, needle, 0);
  HOOK(strstr, haystack, needle, r);
  return r;
}

char *strcasestr(const char *haystack, const char *needle) {
  find_fn f = REAL(strcasestr);
  char *r = f ? f(haystack, needle) : fb_strstr(haystack, needle, 1);
  HOOK(strcasestr, haystack, needle, r);
  return r;
}

void *memmem(const void *haystack, size_t hlen, const void *needle,
             size_t nlen) {
  memmem_fn f = REAL(memmem);
  void *r = f ? f(haystack, hlen, needle, nlen)
              : fb_memmem(haystack, hlen, needle, nlen, 0);
  HOOK(memmem, haystack, hlen, needle, nlen, r);
  return r;
}
