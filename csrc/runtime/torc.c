/*
 * torc.c: the table of recent compares (TORC, libFuzzer's idea) for the
 * byte-string comparisons that trace-cmp cannot see: calls of memcmp, bcmp,
 * strcmp, strncmp, strcasecmp, strncasecmp, strstr, strcasestr and memmem.
 *
 * The operands arrive through the sanitizer weak hooks
 * (__sanitizer_weak_hook_*, signatures of compiler-rt's
 * sanitizer/common_interface_defs.h), defined here:
 *  - ASan, MSan and TSan intercept those functions and call the hooks
 *    after the real function (their runtimes define empty weak defaults;
 *    these strong definitions win, this object being linked for
 *    cgofuzz_torc_table_ and cgofuzz_cmp_reset_);
 *  - other builds link libcgofuzz_interceptors.a (csrc/runtime/intercept/),
 *    whose definitions of the functions call the real ones and then these
 *    hooks, as libFuzzer's fuzzer_interceptors does.
 * Either way calls from the target and from the libraries it links are
 * seen, however they were compiled (clang expands a memcmp of constant
 * size into plain loads unless -fno-builtin-memcmp: `cgofuzz cc` passes
 * the -fno-builtin-* flags of -fsanitize=fuzzer; docs/comparisons.md).
 *
 * The hooks run inside the target, possibly in signal handlers or several
 * threads: they take no lock, never allocate, never call an intercepted
 * function (the runtime's own memcmp calls would recurse), and every index
 * they write is masked, so a race can at worst mix two entries. While
 * recording is off (cgofuzz_cmp_on_ == 0: always under Go's coordinator,
 * and outside the target's execs) a hook is one load and a branch.
 */
#include "runtime.h"

cgofuzz_torc_ cgofuzz_torc_table_ = {.gen = 1};

/* Before a recorded exec: the comparison log (tracecmp.c) is emptied and
 * the TORC's entries of earlier execs stop being fresh. Here rather than
 * in tracecmp.c, whose hooks then need nothing of this file. */
void cgofuzz_cmp_reset_(void) {
  cgofuzz_cmp_log_table_.npairs = 0;
  cgofuzz_cmp_log_table_.nruns = 0;
  cgofuzz_torc_table_.gen++;
}

/* Bytes of s before its NUL, at most max. */
static size_t str_len(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n])
    n++;
  return n;
}

static void copy_bytes(uint8_t *dst, const uint8_t *src, size_t n) {
  for (size_t i = 0; i < n; i++)
    dst[i] = src[i];
}

/* The value-profile distance of a byte-string comparison: the bytes
 * after the common prefix (of the shorter side, up to 7), times 8, plus
 * the Hamming distance of the first differing bytes. */
static void vp_bytes(uintptr_t pc, const uint8_t *a, size_t alen,
                     const uint8_t *b, size_t blen) {
  size_t n = alen < blen ? alen : blen, i = 0;
  while (i < n && a[i] == b[i])
    i++;
  unsigned hd = i < n ? cgofuzz_popcount64_((uint64_t)(a[i] ^ b[i])) : 0;
  size_t left = n - i < 7 ? n - i : 7;
  cgofuzz_vp_note_(cgofuzz_vp_site_(pc), (unsigned)left * 8 + hd);
}

static void note(uintptr_t pc, int fn, const uint8_t *a, size_t alen,
                 const uint8_t *b, size_t blen) {
  if (cgofuzz_cmp_on_ & CGOFUZZ_CMP_VP && alen)
    vp_bytes(pc, a, alen, b, blen);
  if (!(cgofuzz_cmp_on_ & CGOFUZZ_CMP_REC))
    return;
  if (alen > CGOFUZZ_TORC_MAX)
    alen = CGOFUZZ_TORC_MAX;
  if (blen > CGOFUZZ_TORC_MAX)
    blen = CGOFUZZ_TORC_MAX;
  if (blen == 0) { /* keep the non-empty side in b */
    const uint8_t *t = a;
    a = b;
    b = t;
    blen = alen;
    alen = 0;
  }
  if (blen == 0)
    return;
  /* The slot: FNV-1a of the call site and both operands, so that one site
   * comparing against several constants keeps several entries. */
  uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)pc;
  for (size_t i = 0; i < alen; i++)
    h = (h ^ a[i]) * 0x100000001b3ull;
  h = (h ^ 0xff) * 0x100000001b3ull;
  for (size_t i = 0; i < blen; i++)
    h = (h ^ b[i]) * 0x100000001b3ull;
  cgofuzz_torc_ *t = &cgofuzz_torc_table_;
  size_t home = (size_t)(h ^ (h >> 32));
  cgofuzz_torc_entry_ *e = NULL;
  for (size_t i = 0; i < CGOFUZZ_TORC_WAYS; i++) {
    cgofuzz_torc_entry_ *s = &t->e[(home + i) & (CGOFUZZ_TORC_N - 1)];
    if (s->hash == h && s->gen) { /* the same comparison again */
      s->gen = t->gen;
      return;
    }
    if (!e && s->gen != t->gen) /* empty, or an earlier exec's */
      e = s;
  }
  if (!e) /* all taken by this exec: the newest wins */
    e = &t->e[home & (CGOFUZZ_TORC_N - 1)];
  e->gen = 0; /* invalid while being written */
  e->hash = h;
  e->pc = pc;
  e->fn = (uint8_t)fn;
  e->alen = (uint8_t)alen;
  e->blen = (uint8_t)blen;
  copy_bytes(e->a, a, alen);
  copy_bytes(e->b, b, blen);
  e->gen = t->gen;
  t->nrec++;
}

#define PC(p) ((uintptr_t)(p))
#define U8(p) ((const uint8_t *)(p))

void __sanitizer_weak_hook_memcmp(void *called_pc, const void *s1,
                                  const void *s2, size_t n, int result);
void __sanitizer_weak_hook_memcmp(void *called_pc, const void *s1,
                                  const void *s2, size_t n, int result) {
  if (__builtin_expect(!cgofuzz_cmp_on_, 1) || result == 0 || n <= 1)
    return;
  size_t k = n < CGOFUZZ_TORC_MAX ? n : CGOFUZZ_TORC_MAX;
  note(PC(called_pc), CGOFUZZ_TORC_MEMCMP, U8(s1), k, U8(s2), k);
}

/* strncmp and strncasecmp (n bounds both), strcmp and strcasecmp (n is
 * CGOFUZZ_TORC_MAX): each side is kept up to its NUL. */
static void str_hook(void *called_pc, int fn, const char *s1, const char *s2,
                     size_t n, int result) {
  if (__builtin_expect(!cgofuzz_cmp_on_, 1) || result == 0)
    return;
  if (n > CGOFUZZ_TORC_MAX)
    n = CGOFUZZ_TORC_MAX;
  size_t l1 = str_len(s1, n), l2 = str_len(s2, n);
  if (l1 + l2 <= 1)
    return;
  note(PC(called_pc), fn, U8(s1), l1, U8(s2), l2);
}

void __sanitizer_weak_hook_strncmp(void *called_pc, const char *s1,
                                   const char *s2, size_t n, int result);
void __sanitizer_weak_hook_strncmp(void *called_pc, const char *s1,
                                   const char *s2, size_t n, int result) {
  str_hook(called_pc, CGOFUZZ_TORC_STRNCMP, s1, s2, n, result);
}

void __sanitizer_weak_hook_strcmp(void *called_pc, const char *s1,
                                  const char *s2, int result);
void __sanitizer_weak_hook_strcmp(void *called_pc, const char *s1,
                                  const char *s2, int result) {
  str_hook(called_pc, CGOFUZZ_TORC_STRCMP, s1, s2, CGOFUZZ_TORC_MAX, result);
}

void __sanitizer_weak_hook_strncasecmp(void *called_pc, const char *s1,
                                       const char *s2, size_t n, int result);
void __sanitizer_weak_hook_strncasecmp(void *called_pc, const char *s1,
                                       const char *s2, size_t n, int result) {
  str_hook(called_pc, CGOFUZZ_TORC_STRNCASECMP, s1, s2, n, result);
}

void __sanitizer_weak_hook_strcasecmp(void *called_pc, const char *s1,
                                      const char *s2, int result);
void __sanitizer_weak_hook_strcasecmp(void *called_pc, const char *s1,
                                      const char *s2, int result) {
  str_hook(called_pc, CGOFUZZ_TORC_STRCASECMP, s1, s2, CGOFUZZ_TORC_MAX,
           result);
}

/* strstr, strcasestr, memmem: the needle, when it was not found (the
 * haystack is mostly the input, too long to be an operand). */
static void needle_hook(void *called_pc, int fn, const uint8_t *needle,
                        size_t n, const void *result) {
  if (__builtin_expect(!cgofuzz_cmp_on_, 1) || result || n == 0 ||
      !(cgofuzz_cmp_on_ & CGOFUZZ_CMP_REC))
    return;
  note(PC(called_pc), fn, needle, 0, needle, n);
}

void __sanitizer_weak_hook_strstr(void *called_pc, const char *s1,
                                  const char *s2, char *result);
void __sanitizer_weak_hook_strstr(void *called_pc, const char *s1,
                                  const char *s2, char *result) {
  (void)s1;
  if (__builtin_expect(!cgofuzz_cmp_on_, 1))
    return;
  needle_hook(called_pc, CGOFUZZ_TORC_STRSTR, U8(s2),
              str_len(s2, CGOFUZZ_TORC_MAX), result);
}

void __sanitizer_weak_hook_strcasestr(void *called_pc, const char *s1,
                                      const char *s2, char *result);
void __sanitizer_weak_hook_strcasestr(void *called_pc, const char *s1,
                                      const char *s2, char *result) {
  (void)s1;
  if (__builtin_expect(!cgofuzz_cmp_on_, 1))
    return;
  needle_hook(called_pc, CGOFUZZ_TORC_STRCASESTR, U8(s2),
              str_len(s2, CGOFUZZ_TORC_MAX), result);
}

void __sanitizer_weak_hook_memmem(void *called_pc, const void *s1, size_t len1,
                                  const void *s2, size_t len2, void *result);
void __sanitizer_weak_hook_memmem(void *called_pc, const void *s1, size_t len1,
                                  const void *s2, size_t len2, void *result) {
  (void)s1;
  (void)len1;
  needle_hook(called_pc, CGOFUZZ_TORC_MEMMEM, U8(s2),
              len2 < CGOFUZZ_TORC_MAX ? len2 : CGOFUZZ_TORC_MAX, result);
}
