/*
 * gobin_trap.c: -panic-on's list of functions and the failures its traps
 * cause, read back (gobin_patch.h says how the copies trap a call;
 * gobin_patch.c writes the traps).
 *
 * Invariants: a message is taken for a trap's only when it shows one of
 * the traps' own marks (an entry's fault address and pc, a frame at an
 * entry, an INT3 site's pc); a program's own nil dereference or fatal
 * error is never named as a call of a listed function.
 */
#include <stdlib.h>
#include <string.h>

#include "gobin_patch.h"
#include "text.h"

/* The hexadecimal number after key in s[0..n), or false. */
static bool hex_after(const char *s, size_t n, const char *key, uint64_t *v) {
  size_t kl = strlen(key);
  const char *at =
      (const char *)cgofuzz_text_find((const uint8_t *)s, n, key, kl);
  if (!at)
    return false;
  const char *p = at + kl, *e = s + n;
  uint64_t x = 0;
  int digits = 0;
  for (; p < e && digits < 16; p++, digits++) {
    int d = cgofuzz_hexval((unsigned char)*p);
    if (d < 0)
      break;
    x = x << 4 | (uint64_t)d;
  }
  *v = x;
  return digits > 0;
}

/* Whether msg shows function name's frame at its entry: a line "NAME("
 * whose file line after it has no "+0x" offset (Go prints one for any
 * other pc), and not an inlined frame (whose arguments Go prints as
 * "(...)", without an offset either). */
static bool frame_at_entry(const char *msg, size_t len, const char *name) {
  size_t nl = strlen(name);
  const char *p = msg, *e = msg + len;
  while (p < e) {
    const char *at = (const char *)cgofuzz_text_find((const uint8_t *)p,
                                                     (size_t)(e - p), name, nl);
    if (!at)
      return false;
    p = at + nl;
    bool line_start =
        at == msg || at[-1] == '\n' || at[-1] == ' ' || at[-1] == '\t';
    if (!line_start || p >= e || *p != '(' ||
        ((size_t)(e - p) >= 5 && memcmp(p, "(...)", 5) == 0))
      continue; /* "(...)": an inlined frame, printed without an offset */
    const char *eol = memchr(p, '\n', (size_t)(e - p));
    if (!eol)
      return false;
    const char *file = eol + 1;
    const char *end = memchr(file, '\n', (size_t)(e - file));
    size_t fl = end ? (size_t)(end - file) : (size_t)(e - file);
    if (!cgofuzz_text_find((const uint8_t *)file, fl, " +0x", 4))
      return true;
  }
  return false;
}

/* The first of the trap sites whose pc Go's report of a SIGTRAP gives,
 * in s[0..n): "PC=0x..." after the signal's name, or a frame's "pc=0x..."
 * (the first frame of the goroutine that ran into it, where a report is
 * cut to that goroutine); -1 when none is a site. */
static int site_after(const char *s, size_t n,
                      const cgofuzz_gobin_patched *info) {
  static const char *const keys[] = {"PC=0x", "pc=0x"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    const char *p = s;
    uint64_t at;
    while (p < s + n && hex_after(p, (size_t)(s + n - p), keys[i], &at)) {
      for (size_t j = 0; j < info->n_sites; j++)
        if (info->sites[j].pc == at)
          return (int)info->sites[j].k;
      p = (const char *)cgofuzz_text_find((const uint8_t *)p,
                                          (size_t)(s + n - p), keys[i], 5) +
          5;
    }
  }
  return -1;
}

/* The failure's kind: a SIGTRAP at an inlined call's INT3 (Go prints
 * "SIGTRAP: trace trap", then pc values one past it); or a nil dereference
 * at an entry, recovered (testing's report of a fuzz function's panic: the
 * trapped function's frame sits at its entry) or not (Go also prints the
 * signal, "[signal SIGSEGV: segmentation violation code=0x1 addr=0x402
 * pc=0x4f5e20]": the trap's address and its entry). */
int cgofuzz_gobin_trap_hit(const char *msg, size_t len,
                           const cgofuzz_gobin_traps *traps,
                           const cgofuzz_gobin_patched *info) {
  static const char nil[] = "invalid memory address or nil pointer dereference";
  static const char trap[] = "SIGTRAP: trace trap";
  const uint8_t *m = (const uint8_t *)msg;
  uint64_t addr, at;
  if (!traps->n || info->traps != traps->n)
    return -1;
  const char *t =
      (const char *)cgofuzz_text_find(m, len, trap, sizeof trap - 1);
  if (t) {
    int k = site_after(t, len - (size_t)(t - msg), info);
    if (k >= 0)
      return k;
  }
  if (!cgofuzz_text_find(m, len, nil, sizeof nil - 1))
    return -1;
  const char *sig =
      (const char *)cgofuzz_text_find(m, len, "[signal SIGSEGV", 15);
  if (sig) {
    size_t rest = len - (size_t)(sig - msg);
    const char *close = memchr(sig, ']', rest);
    if (close)
      rest = (size_t)(close - sig);
    if (hex_after(sig, rest, " addr=0x", &addr) &&
        hex_after(sig, rest, " pc=0x", &at) && addr >= CGOFUZZ_TRAP_ADDR &&
        addr - CGOFUZZ_TRAP_ADDR < traps->n &&
        info->trap_pc[addr - CGOFUZZ_TRAP_ADDR] == at && at)
      return (int)(addr - CGOFUZZ_TRAP_ADDR);
  }
  for (size_t k = 0; k < traps->n; k++)
    if (info->trap_pc[k] && frame_at_entry(msg, len, traps->names[k]))
      return (int)k;
  return -1;
}

int cgofuzz_gobin_traps_split(const char *list, char ***names, size_t *n) {
  *names = NULL;
  *n = 0;
  for (const char *p = list; p && *p;) {
    const char *e = p;
    for (int depth = 0; *e && (*e != ',' || depth > 0); e++)
      depth += *e == '[' ? 1 : *e == ']' ? -1 : 0;
    size_t len = (size_t)(e - p);
    bool dup = len == 0;
    for (size_t i = 0; i < *n && !dup; i++)
      dup = strlen((*names)[i]) == len && memcmp((*names)[i], p, len) == 0;
    if (!dup) {
      char **nn = realloc(*names, (*n + 1) * sizeof *nn);
      if (!nn || !(nn[*n] = strndup(p, len))) {
        if (nn)
          *names = nn;
        cgofuzz_gobin_traps_free(*names, *n);
        *names = NULL;
        *n = 0;
        return -1;
      }
      *names = nn;
      (*n)++;
    }
    p = *e ? e + 1 : e;
  }
  return 0;
}

void cgofuzz_gobin_traps_free(char **names, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

void cgofuzz_gobin_patched_free(cgofuzz_gobin_patched *info) {
  free(info->sites);
  info->sites = NULL;
  info->n_sites = 0;
}
