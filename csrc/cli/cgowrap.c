/*
 * cgowrap.c: cgo-cc's rewrite of cgo's generated wrappers (x.cgo2.c), so
 * that the cgo loop (csrc/runtime/cgo/cgo_loop.c) can run a C function
 * again on mutants of the fuzz input (docs/cgo.md, "The cgo loop").
 *
 * cgo writes one C wrapper per C function a package calls,
 * _cgo_<hash>_Cfunc_<name>(void *v), which reads the arguments from a
 * packed struct at v (fields p0, p1, ..., and r for the result), calls the
 * function, and stores the result (cmd/cgo/out.go writeOutputFunc; the
 * same text from go1.18 to go1.27). For each wrapper with at least one
 * pointer argument, no pointer result and no errno (cgo's int-returning
 * form), this inserts into the wrapper:
 *  - after the struct's declaration, a call of cgofuzz_cgo_loop with the
 *    frame, its size, the wrapper itself (which the loop calls again with
 *    a copy of the frame; the loop does not enter itself, so those calls
 *    go straight to the C function) and the arguments' offsets: the
 *    pointers', 0xffff, then the others' as offset * 16 + size (one may
 *    hold the input's length), 0xffff, then the result's the same way,
 *    for a function that has one (0 as its size when over 15 bytes),
 *    0xffff; then the wrapper re-derives its
 *    frame pointer as cgo does after a call (a Go callback in the loop may
 *    have moved the Go stack);
 *  - after the C call, cgofuzz_cgo_loop_end with the same frame: a find
 *    is handed over only once the real call has returned.
 * The wrapper itself, not a function of our own, because a static C
 * function is inlined into each caller with counters of its own: only the
 * wrapper's are the edges Go's worker sees. The calls are unconditional,
 * so the wrapper keeps its one basic block (no edge of cgofuzz's own
 * among the package's); every link cgo-cc makes has libcgofuzz_cgo.a.
 *
 * Invariants: a wrapper that does not match the expected text exactly is
 * left as it is (the rewrite is an optimisation, never needed for
 * correctness); the lines before the first rewritten wrapper (the
 * preamble, under its #line directives) are unchanged.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "file.h"

typedef struct span {
  const char *p;
  size_t n;
} span;

static bool starts(span l, const char *s) {
  size_t n = strlen(s);
  return l.n >= n && memcmp(l.p, s, n) == 0;
}

static bool ends(span l, const char *s) {
  size_t n = strlen(s);
  return l.n >= n && memcmp(l.p + l.n - n, s, n) == 0;
}

/* The name of a wrapper from its line "_cgo_<hash>_Cfunc_<name>(void *v)",
 * or an empty span. */
static span wrapper_name(span l) {
  span none = {NULL, 0};
  if (!starts(l, "_cgo_") || !ends(l, "(void *v)"))
    return none;
  const char *f = memmem(l.p, l.n, "_Cfunc_", 7);
  if (!f)
    return none;
  span name = {f + 7, (size_t)(l.p + l.n - 9 - (f + 7))};
  for (size_t i = 0; i < name.n; i++) {
    char c = name.p[i];
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9')))
      return none;
  }
  return name;
}

/* A field line "\t\tTYPE NAME;": whether TYPE is a pointer, and NAME. */
static bool field(span l, bool *ptr, span *name) {
  if (!starts(l, "\t\t") || !ends(l, ";"))
    return false;
  const char *sp = NULL;
  for (size_t i = 2; i + 1 < l.n; i++)
    if (l.p[i] == ' ')
      sp = l.p + i;
  if (!sp)
    return false;
  const char *t = sp;
  while (t > l.p + 2 && t[-1] == ' ')
    t--;
  *ptr = t > l.p + 2 && t[-1] == '*';
  name->p = sp + 1;
  name->n = (size_t)(l.p + l.n - 1 - name->p);
  return name->n > 0;
}

/* One wrapper found: lines [first, close] (first is its
 * CGO_NO_SANITIZE_THREAD line), the struct's lines [s0, s1], the C call's
 * line, and the pointer arguments' names. */
typedef struct wrapper {
  size_t first, s0, s1, call, close;
  span name, fname;        /* fname: the wrapper's name after "_cgo" */
  span ptrs[16], ints[16]; /* pointer arguments; the others */
  size_t nptrs, nints;
  bool result; /* a field r (never a pointer: see read_wrapper) */
} wrapper;

/* Reads a wrapper whose name line is at i; false unless every part has
 * the expected shape and there is a pointer argument and no pointer
 * result. */
static bool read_wrapper(const span *ln, size_t n, size_t i, wrapper *w) {
  memset(w, 0, sizeof *w);
  w->name = wrapper_name(ln[i]);
  if (!w->name.n || i < 2 || !starts(ln[i - 2], "CGO_NO_SANITIZE_THREAD") ||
      ln[i - 1].n != 4 || memcmp(ln[i - 1].p, "void", 4) != 0 || i + 2 >= n ||
      ln[i + 1].n != 1 || ln[i + 1].p[0] != '{')
    return false;
  /* "_cgo" ... "(void *v)", as wrapper_name checked */
  w->fname = (span){ln[i].p + 4, ln[i].n - 4 - 9};
  w->first = i - 2;
  size_t k = i + 2;
  if (k < n && starts(ln[k], "\tint _cgo_errno;"))
    k++;
  if (k >= n || ln[k].n != 9 || memcmp(ln[k].p, "\tstruct {", 9) != 0)
    return false;
  w->s0 = k++;
  for (; k < n && !starts(ln[k], "\t} __attribute__((__packed__"); k++) {
    bool ptr;
    span f;
    if (!field(ln[k], &ptr, &f))
      return false;
    if (f.n == 1 && f.p[0] == 'r' && ptr)
      return false; /* a pointer result: maybe memory the caller frees */
    if (f.n == 1 && f.p[0] == 'r')
      w->result = true;
    if (ptr && f.n >= 2 && f.p[0] == 'p' && w->nptrs < 16)
      w->ptrs[w->nptrs++] = f;
    else if (!ptr && f.n >= 2 && f.p[0] == 'p' && w->nints < 16)
      w->ints[w->nints++] = f;
  }
  if (k >= n || !ends(ln[k], "*_cgo_a = v;") || !w->nptrs)
    return false;
  w->s1 = k;
  for (; k < n && !(ln[k].n == 1 && ln[k].p[0] == '}'); k++) {
    span l = ln[k];
    if (!starts(l, "\t") || !ends(l, ");") || !memmem(l.p, l.n, "_cgo_a->p", 9))
      continue;
    l.p++, l.n--;
    if (starts(l, "_cgo_r = "))
      l.p += 9, l.n -= 9;
    if (starts(l, "(__typeof__(_cgo_a->r)) "))
      l.p += 24, l.n -= 24;
    if (w->call || l.n <= w->name.n || memcmp(l.p, w->name.p, w->name.n) != 0 ||
        l.p[w->name.n] != '(')
      return false;
    w->call = k;
  }
  if (k >= n || !w->call)
    return false;
  w->close = k;
  return true;
}

static void put(cgofuzz_buf *o, span l) {
  cgofuzz_buf_append(o, (const uint8_t *)l.p, l.n);
  cgofuzz_buf_append(o, (const uint8_t *)"\n", 1);
}

int cli_cgowrap_rewrite(const char *src, const char *dst, cgofuzz_err *err) {
  cgofuzz_buf in = {0}, out = {0};
  if (cgofuzz_file_read(src, &in) != 0)
    return cgofuzz_errf(err, 0, "cannot read %s", src);
  size_t n = 0, cap = 1;
  for (size_t i = 0; i < in.len; i++)
    cap += in.data[i] == '\n';
  span *ln = calloc(cap, sizeof *ln);
  if (!ln) {
    cgofuzz_buf_free(&in);
    return cgofuzz_errf(err, 0, "out of memory");
  }
  for (size_t a = 0, b; a < in.len; a = b + 1) {
    for (b = a; b < in.len && in.data[b] != '\n'; b++)
      ;
    ln[n++] = (span){(const char *)in.data + a, b - a};
  }
  bool declared = false;
  for (size_t i = 0; i < n; i++) {
    wrapper w;
    if (i + 2 >= n || !read_wrapper(ln, n, i + 2, &w) || w.first != i) {
      put(&out, ln[i]);
      continue;
    }
    if (!declared) {
      cgofuzz_buf_printf(&out, "void cgofuzz_cgo_loop(void *, size_t, "
                               "void (*)(void *), const unsigned short *);\n"
                               "void cgofuzz_cgo_loop_end(const void *);\n");
      declared = true;
    }
    for (size_t k = w.first; k <= w.s1; k++)
      put(&out, ln[k]);
    cgofuzz_buf_printf(&out,
                       "\t{\n"
                       "\t\tstatic const unsigned short _cgofuzz_args[] = {");
    for (size_t k = 0; k < w.nptrs; k++)
      cgofuzz_buf_printf(&out,
                         "__builtin_offsetof(__typeof__(*_cgo_a), %.*s), ",
                         (int)w.ptrs[k].n, w.ptrs[k].p);
    cgofuzz_buf_printf(&out, "0xffff, ");
    for (size_t k = 0; k < w.nints; k++)
      cgofuzz_buf_printf(&out,
                         "__builtin_offsetof(__typeof__(*_cgo_a), %.*s) * 16 + "
                         "sizeof(_cgo_a->%.*s), ",
                         (int)w.ints[k].n, w.ints[k].p, (int)w.ints[k].n,
                         w.ints[k].p);
    cgofuzz_buf_printf(&out, "0xffff, ");
    if (w.result)
      cgofuzz_buf_printf(&out, "__builtin_offsetof(__typeof__(*_cgo_a), r) "
                               "* 16 + (sizeof(_cgo_a->r) & 15), ");
    cgofuzz_buf_printf(
        &out,
        "0xffff};\n"
        "\t\tchar *_cgofuzz_top = _cgo_topofstack();\n"
        "\t\tcgofuzz_cgo_loop(v, sizeof *_cgo_a, _cgo%.*s, _cgofuzz_args);\n"
        "\t\t_cgo_a = (void*)((char*)_cgo_a + (_cgo_topofstack() - "
        "_cgofuzz_top));\n"
        "\t}\n",
        (int)w.fname.n, w.fname.p);
    for (size_t k = w.s1 + 1; k <= w.close; k++) {
      put(&out, ln[k]);
      if (k == w.call)
        cgofuzz_buf_printf(&out, "\tcgofuzz_cgo_loop_end(v);\n");
    }
    i = w.close;
  }
  free(ln);
  int rc = 0;
  if (out.failed)
    rc = cgofuzz_errf(err, 0, "out of memory");
  else if (cgofuzz_file_write_atomic(
               dst, out.data, out.len, 0666,
               CGOFUZZ_FILE_KEEP_MODE | CGOFUZZ_FILE_NO_SYNC, NULL) != 0)
    rc = cgofuzz_errf(err, 0, "cannot write %s: %s", dst, strerror(errno));
  cgofuzz_buf_free(&in);
  cgofuzz_buf_free(&out);
  return rc;
}
