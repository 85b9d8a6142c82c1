/*
 * gobin_godict.c: a dictionary taken from a Go test binary's code and
 * data, handed token by token to a sink (gobin.h) the caller owns.
 *
 * A `go test -c -fuzz` binary has no comparison feedback, but its machine
 * code still says what it compares with, and its data holds the string
 * literals no instruction names. Steps:
 *  1. the symbol table (ELF or Mach-O, gobin_obj.c) names the fuzz target's
 * package (the symbol <pkg>.<Target>) and the range of Go's string data
 * (go:string.*, go.string.* before Go 1.20, up to the next symbol);
 *  2. `go version -m` names the main module, and `go tool objdump -s`
 *     disassembles the functions of the target's package (and its _test
 *     twin) and of the rest of its module. It takes a few hundred ms
 *     (go builds objdump into its cache first): fuzzing does not wait for
 *     it, the coordinator adds the code's tokens when it is done
 *     (cgofuzz_gobin_godict_code_start/poll);
 *  3. each function's instructions are read with a little register
 *     tracking (an immediate moved into a register, a RIP-relative LEAQ):
 *      - comparisons with an immediate (CMPW/CMPL/CMPQ, TEST, arm64 CMP):
 *        the immediate, 2, 4 or 8 bytes as the operand, both byte orders;
 *        a comparison of two registers, one loaded with an immediate just
 *        before (64-bit constants go through a register), likewise;
 *      - Go's comparison instrumentation: a -fuzz build calls the (empty)
 *        runtime.libfuzzerTraceConstCmp2/4/8 with the constant as first
 *        argument, and runtime.libfuzzerHookStrCmp/HookEqualFold with the
 *        two strings;
 *      - calls that compare or search strings (those hooks,
 *        runtime.memequal and cmpstring, internal/bytealg, bytes and
 *        strings, a string-keyed map's mapaccess/mapassign/mapdelete): an
 *        argument pair (pointer, length) in consecutive argument registers
 *        that is a LEAQ'd address and an immediate (2..256) is read from
 *        the file (memequal: either pointer with its size argument);
 *      - a string header built in memory (amd64): MOVQ of a LEAQ'd string
 *        address to off(R) and of an immediate 2..256 to off+8(R) (the
 *        elements of a []string literal on the stack, variadic arguments,
 *        a struct's field);
 *      - any other LEAQ of an address inside Go's string data (a literal
 *        indexed in a loop, ...) with the immediates 2..64 compared with
 *        within 24 instructions (a loop bound, a length check) as its
 *        candidate lengths, the two nearest;
 *      - a LEAQ of other data used as the base of an indexed operand
 *        ((R)(I*8)): a static array a loop reads, such as the keys and
 *        values a map literal of more than 25 entries is filled from (in
 *        <pkg>.map.init.N, <pkg>.init before Go 1.21; the arrays have no
 *        symbol), read as a table (below) of the nearest compared count.
 *    Functions of _test.go files are skipped (test tables) except the
 *    fuzz targets (Fuzz*) and their closures.
 *  4. the data of the target's package (needs no go): each object symbol
 *     of <pkg> and <pkg>_test in rodata or data (package variables,
 *     closures' statics) is read for string headers, 8-aligned (pointer,
 *     length) pairs pointing into Go's string data, and slice headers,
 *     whose arrays (`var t = []string{...}`: its array has no symbol) are
 *     read as tables: their element size is the smallest stride at which
 *     each of the slice's elements holds a header at the same offset, so
 *     the read stops at the table's end, not at the next table after it.
 *     Other packages' data is not read.
 * Immediates 0..255 (and -256..-1) are left out: Go's mutator reaches them
 * on its own. Tokens of the target's package come first in weight
 * (the sink's pkg_src) before the rest of the module's (its module_src);
 * those of the data come after those of the code.
 * The instruction syntax is Go's (cmd/objdump): linux/amd64 is read fully;
 * on arm64 only comparisons with immediates and the instrumentation calls
 * (and the data, which is the same).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "gobin.h"
#include "gobin_obj.h"
#include "scratch.h"
#include "spawn.h"

#define OBJDUMP_TIMEOUT_MS 120000
#define REG_AGE 12    /* instructions an immediate stays usable */
#define LEN_WINDOW 24 /* instructions around a LEAQ for its length */
#define MAX_STR_TOKEN 256
#define MAX_COUNT 65536     /* elements of a table (a loop bound, a slice) */
#define MAX_STRIDE 256      /* bytes of a table's element */
#define MAX_TABLE (1 << 20) /* bytes of a table */
#define MAX_NEST 2          /* tables of tables ([][]string) */
#define NSTORES 16          /* recent stores of a function, for their pairs */

/* The little-endian word at va (Go's amd64 and arm64 data). */
static bool obj_word(const cgofuzz_gobin_obj *o, uint64_t va, uint64_t *v) {
  const uint8_t *b = cgofuzz_gobin_obj_data_at(o, va, 8);
  if (!b)
    return false;
  *v = 0;
  for (int i = 7; i >= 0; i--)
    *v = *v << 8 | b[i];
  return true;
}

/* The package path of a function symbol: up to the first '.' after the
 * last '/' (before any '[' or '(' of generics and methods). */
static size_t pkg_len(const char *name) {
  size_t end = strcspn(name, "[(");
  size_t slash = 0;
  for (size_t i = 0; i < end; i++)
    if (name[i] == '/')
      slash = i + 1;
  const char *dot = memchr(name + slash, '.', end - slash);
  return dot ? (size_t)(dot - name) : 0;
}

/* --- running go */

static char *find_go(void) {
  const char *path = getenv("PATH");
  cgofuzz_buf b = {0};
  for (const char *p = path ? path : ""; *p;) {
    const char *e = strchr(p, ':');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    b.len = 0;
    cgofuzz_buf_printf(&b, "%.*s/go", (int)l, l ? p : ".");
    if (access(cgofuzz_buf_cstr(&b), X_OK) == 0)
      return (char *)b.data;
    p += l + (e ? 1 : 0);
  }
  cgofuzz_buf_free(&b);
  return NULL;
}

static void quote_re(cgofuzz_buf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (strchr("\\.+*?()|[]{}^$", s[i]))
      cgofuzz_buf_putc(b, '\\');
    cgofuzz_buf_putc(b, (uint8_t)s[i]);
  }
}

/* --- reading the disassembly */

/* What a register holds: nothing known, an immediate, an address, or
 * (arm64) the 4 KiB page of an address an ADD is to complete. */
enum { R_NONE, R_IMM, R_ADDR, R_PAGE };

typedef struct reg {
  char name[8];
  int kind;
  uint64_t v;
  int width; /* of the MOV that loaded an immediate */
  size_t at; /* instruction index */
} reg;

typedef struct pend {
  uint64_t addr;
  size_t at;
} pend;

typedef struct lenimm {
  unsigned n;
  size_t at;
} lenimm;

/* A MOVQ to memory, off(base): an immediate or a string data address. */
typedef struct store {
  char base[8];
  int64_t off;
  int kind; /* R_IMM, R_ADDR */
  uint64_t v;
  size_t at;
} store;

/* A symbol by name, for the "sym+off(SB)" operands objdump prints for a
 * Mach-O file's addresses. */
typedef struct named {
  const char *name;
  uint64_t value;
} named;

typedef struct walker {
  const cgofuzz_gobin_obj *obj;
  named *names; /* sorted by name */
  size_t nnames;
  const cgofuzz_gobin_sink *d; /* where tokens go (the job's copy) */
  bool arm64;
  uint64_t str_lo, str_hi; /* Go's string data */
  const char *tpkg;        /* the target's package, without _test */
  size_t tpkg_len;
  bool skip; /* the current function is not read */
  int src;   /* of the current function */
  size_t at;
  reg regs[24];
  size_t nregs;
  pend *pend;
  size_t npend, cap_pend;
  pend *tabs; /* LEAQs of other data: tables, with a count nearby */
  size_t ntabs, cap_tabs;
  store stores[NSTORES];
  size_t nstores;
  lenimm *lens;
  size_t nlens, cap_lens;
  size_t added;
  bool oom;
} walker;

static void note(walker *w, int r) {
  if (r < 0)
    w->oom = true;
  else
    w->added += (size_t)r;
}

/* amd64's byte registers (AL, SIB, R8B) are their full registers. */
static void reg_norm(const char *s, size_t n, char out[8]) {
  static const char *map[][2] = {{"AL", "AX"},  {"BL", "BX"},  {"CL", "CX"},
                                 {"DL", "DX"},  {"SIB", "SI"}, {"DIB", "DI"},
                                 {"BPB", "BP"}, {"SPB", "SP"}};
  if (n >= 8)
    n = 7;
  memcpy(out, s, n);
  out[n] = 0;
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(out, map[i][0]) == 0) {
      strcpy(out, map[i][1]);
      return;
    }
  if (n >= 3 && out[0] == 'R' && out[n - 1] == 'B' && out[1] >= '0' &&
      out[1] <= '9')
    out[n - 1] = 0; /* R8B -> R8 */
}

static bool is_reg(const char *s, size_t n) {
  if (n == 0 || n > 6)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
      return false;
  return s[0] >= 'A' && s[0] <= 'Z';
}

static reg *reg_get(walker *w, const char *s, size_t n, bool create) {
  char name[8];
  reg_norm(s, n, name);
  for (size_t i = 0; i < w->nregs; i++)
    if (strcmp(w->regs[i].name, name) == 0)
      return &w->regs[i];
  if (!create || w->nregs == sizeof w->regs / sizeof w->regs[0])
    return NULL;
  reg *r = &w->regs[w->nregs++];
  memset(r, 0, sizeof *r);
  strcpy(r->name, name);
  return r;
}

/* Register s[0..n) if it holds a value of that kind, loaded recently. */
static const reg *reg_fresh_n(walker *w, const char *s, size_t n, int kind) {
  const reg *r = reg_get(w, s, n, false);
  return r && r->kind == kind && w->at - r->at <= REG_AGE ? r : NULL;
}

static const reg *reg_fresh(walker *w, const char *name, int kind) {
  return reg_fresh_n(w, name, strlen(name), kind);
}

/* Parses "$imm" (hex or decimal, optional sign). */
static bool parse_imm(const char *s, size_t n, int64_t *v) {
  if (n < 2 || s[0] != '$')
    return false;
  char tmp[32];
  if (n - 1 >= sizeof tmp)
    return false;
  memcpy(tmp, s + 1, n - 1);
  tmp[n - 1] = 0;
  char *end;
  long long x = strtoll(tmp, &end, 0);
  if (*end || end == tmp) {
    unsigned long long u = strtoull(tmp, &end, 0);
    if (*end || end == tmp)
      return false;
    x = (long long)u;
  }
  *v = (int64_t)x;
  return true;
}

/* Operand width of a comparison mnemonic, 0 if it is not one (or bytes). */
static int cmp_width(walker *w, const char *m) {
  if (w->arm64) {
    if (!strcmp(m, "CMP") || !strcmp(m, "CMN") || !strcmp(m, "TST"))
      return 8;
    if (!strcmp(m, "CMPW") || !strcmp(m, "CMNW") || !strcmp(m, "TSTW"))
      return 4;
    return 0;
  }
  size_t n = strlen(m);
  if (n != 4 && n != 5)
    return 0;
  if (strncmp(m, "CMP", 3) != 0 && strncmp(m, "TEST", 4) != 0)
    return 0;
  switch (m[n - 1]) {
  case 'W':
    return 2;
  case 'L':
    return 4;
  case 'Q':
    return 8;
  default:
    return 0;
  }
}

/* An immediate compared with: a string's length (2..64) or a table's
 * count (a loop bound). */
static void add_len(walker *w, int64_t v) {
  if (v < 2 || v > MAX_COUNT)
    return;
  if (w->nlens == w->cap_lens) {
    size_t cap = w->cap_lens ? w->cap_lens * 2 : 64;
    lenimm *l = realloc(w->lens, cap * sizeof *l);
    if (!l) {
      w->oom = true;
      return;
    }
    w->lens = l;
    w->cap_lens = cap;
  }
  w->lens[w->nlens++] = (lenimm){(unsigned)v, w->at};
}

static void add_str(walker *w, uint64_t addr, size_t n) {
  if (n < 2 || n > MAX_STR_TOKEN)
    return;
  const uint8_t *p = cgofuzz_gobin_obj_data_at(w->obj, addr, n);
  if (p)
    note(w, w->d->add(w->d->ctx, p, n, w->src, 0, false));
}

/* A literal whose length is known: taken, and not guessed again. */
static void add_pair(walker *w, uint64_t addr, size_t n) {
  add_str(w, addr, n);
  for (size_t i = 0; i < w->npend; i++)
    if (w->pend[i].addr == addr)
      w->pend[i].addr = 0;
}

/* --- string headers in data
 *
 * A Go string is a (pointer, length) header; a table of strings is an
 * array of such headers pointing into Go's string data: a package's
 * `var t = []string{...}` (a slice header in .data, its array in .data
 * with no symbol of its own), `[...]struct{name string; ...}` (the
 * headers in the symbol itself), and the two static arrays, keys and
 * values, that the code of a map literal of more than 25 entries loops
 * over (in rodata, without a symbol, reached only from that code). */

enum { H_NONE, H_EMPTY, H_STR, H_SLICE };

static bool in_strdata(const walker *w, uint64_t p) {
  return p >= w->str_lo && p < w->str_hi;
}

/* What the 8-aligned words at va hold: a string header (its bytes in
 * Go's string data; "" is (0, 0)), or, with slices, a slice header
 * (pointer, length, capacity) to other data: its pointer and length. */
static int hdr_at(const walker *w, uint64_t va, bool slices, uint64_t *p,
                  uint64_t *n) {
  uint64_t c;
  if (!obj_word(w->obj, va, p) || !obj_word(w->obj, va + 8, n))
    return H_NONE;
  if (*p == 0)
    return *n == 0 ? H_EMPTY : H_NONE;
  if (in_strdata(w, *p))
    return *n >= 1 && *n <= w->str_hi - *p ? H_STR : H_NONE;
  if (slices && *n >= 1 && *n <= MAX_COUNT && obj_word(w->obj, va + 16, &c) &&
      c >= *n && c <= MAX_COUNT && cgofuzz_gobin_obj_data_at(w->obj, *p, 16))
    return H_SLICE;
  return H_NONE;
}

static bool scan_table(walker *w, uint64_t va, uint64_t count, int nest);

/* The strings of every string header in [lo, hi), and, nest levels
 * down at most, of the tables its slice headers point to. */
static void scan_words(walker *w, uint64_t lo, uint64_t hi, int nest) {
  for (uint64_t va = (lo + 7) & ~(uint64_t)7; va + 16 <= hi && !w->oom;
       va += 8) {
    uint64_t p, n;
    int k = hdr_at(w, va, nest < MAX_NEST && va + 24 <= hi, &p, &n);
    if (k == H_STR)
      add_str(w, p, n <= MAX_STR_TOKEN ? (size_t)n : 0);
    else if (k == H_SLICE)
      scan_table(w, p, n, nest + 1);
  }
}

/* The table of count elements at va: its element size is taken as the
 * smallest stride (16, 24, ... MAX_STRIDE) at which every element holds
 * a header of the same kind at the same offset, not all "" (16 for
 * []string, a struct's size unless its fields are all strings, when the
 * table is read only in part): the table ends after count such elements,
 * not at the next table that happens to follow it. False when there is
 * no such layout (not a table of strings, or not count long). */
static bool scan_table(walker *w, uint64_t va, uint64_t count, int nest) {
  if (count < 1 || count > MAX_COUNT || (va & 7))
    return false;
  bool slices = nest < MAX_NEST;
  int first[MAX_STRIDE / 8 - 1]; /* the headers of element 0 */
  for (size_t o = 0; o < sizeof first / sizeof first[0]; o++) {
    uint64_t p, n;
    first[o] = hdr_at(w, va + 8 * o, slices, &p, &n);
  }
  for (uint64_t s = 16; s <= MAX_STRIDE && s * count <= MAX_TABLE; s += 8)
    for (uint64_t o = 0; o + 16 <= s; o += 8) {
      int k0 = first[o / 8];
      bool any = k0 == H_STR || k0 == H_SLICE;
      uint64_t i = 1;
      for (; k0 != H_NONE && i < count; i++) {
        uint64_t p, n;
        int k = hdr_at(w, va + o + i * s, slices, &p, &n);
        if (k == H_NONE || (k == H_SLICE) != (k0 == H_SLICE))
          break;
        any |= k != H_EMPTY;
      }
      if (k0 != H_NONE && i == count && any) {
        scan_words(w, va, va + count * s, nest);
        return true;
      }
    }
  return false;
}

/* A string argument pair of an instrumentation call. */
static void str_arg(walker *w, const char *preg, const char *lreg) {
  const reg *p = reg_fresh(w, preg, R_ADDR);
  const reg *l = reg_fresh(w, lreg, R_IMM);
  if (p && l && l->v >= 2 && l->v <= MAX_STR_TOKEN)
    add_pair(w, p->v, (size_t)l->v);
}

/* A store to memory: "MOVQ $len, off+8(base)" next to "MOVQ reg,
 * off(base)" where reg holds an address in Go's string data is a string
 * header being built (a []string literal on the stack, a variadic
 * argument list, a struct's string field). arm64 has no store of an
 * immediate: its "MOVD reg, off(base)" and "STP (reg, reg), off(base)"
 * store registers loaded with the length and the address. True if dst is
 * memory. */
static bool on_store(walker *w, const char *src, size_t sl, const char *dst,
                     size_t dl) {
  const char *lp = dl > 2 ? memchr(dst, '(', dl) : NULL;
  if (!lp || dst[dl - 1] != ')' || !is_reg(lp + 1, (size_t)(dst + dl - lp - 2)))
    return false;
  char tmp[24];
  size_t ol = (size_t)(lp - dst);
  if (ol >= sizeof tmp)
    return true;
  memcpy(tmp, dst, ol);
  tmp[ol] = 0;
  char *end;
  long long off = ol ? strtoll(tmp, &end, 0) : 0;
  if (ol && *end)
    return true; /* a symbol's address */
  store st = {.off = off, .kind = R_NONE, .at = w->at};
  reg_norm(lp + 1, (size_t)(dst + dl - lp - 2), st.base);
  int64_t imm;
  const reg *r;
  if (parse_imm(src, sl, &imm)) {
    st.kind = R_IMM;
    st.v = (uint64_t)imm;
  } else if (is_reg(src, sl) && (r = reg_get(w, src, sl, false)) &&
             w->at - r->at <= REG_AGE &&
             ((r->kind == R_ADDR && in_strdata(w, r->v)) || r->kind == R_IMM)) {
    st.kind = r->kind; /* arm64 stores an immediate from a register */
    st.v = r->v;
  }
  size_t slot = NSTORES;
  for (size_t i = 0; i < w->nstores; i++) {
    const store *o = &w->stores[i];
    if (strcmp(o->base, st.base) != 0)
      continue;
    if (o->off == st.off)
      slot = i; /* overwritten */
    else if (w->at - o->at <= LEN_WINDOW && st.kind != R_NONE &&
             o->kind != R_NONE && o->kind != st.kind &&
             o->off == st.off + (st.kind == R_ADDR ? 8 : -8)) {
      uint64_t addr = st.kind == R_ADDR ? st.v : o->v;
      uint64_t len = st.kind == R_IMM ? st.v : o->v;
      if (len >= 2 && len <= MAX_STR_TOKEN)
        add_pair(w, addr, (size_t)len);
    }
  }
  if (slot == NSTORES && w->nstores < NSTORES)
    slot = w->nstores++;
  else if (slot == NSTORES) /* full: the oldest goes */
    for (size_t i = slot = 0; i < NSTORES; i++)
      if (w->stores[i].at < w->stores[slot].at)
        slot = i;
  w->stores[slot] = st;
  return true;
}

/* End of a function: the LEAQs of string data with their likely lengths. */
static void flush_function(walker *w) {
  for (size_t i = 0; i < w->npend; i++) {
    const pend *p = &w->pend[i];
    if (!p->addr)
      continue;
    unsigned best[2] = {0, 0};
    size_t bd[2] = {(size_t)-1, (size_t)-1};
    for (size_t k = 0; k < w->nlens; k++) {
      const lenimm *l = &w->lens[k];
      size_t dist = l->at > p->at ? l->at - p->at : p->at - l->at;
      if (dist > LEN_WINDOW || l->n > 64 || p->addr + l->n > w->str_hi ||
          l->n == best[0] || l->n == best[1])
        continue;
      if (dist < bd[0]) {
        best[1] = best[0], bd[1] = bd[0];
        best[0] = l->n, bd[0] = dist;
      } else if (dist < bd[1]) {
        best[1] = l->n, bd[1] = dist;
      }
    }
    for (int j = 0; j < 2; j++)
      if (best[j])
        add_str(w, p->addr, best[j]);
  }
  /* A LEAQ of other data with a loop bound nearby: a map literal's keys
   * or values, a table ranged over; the nearest count that fits. */
  for (size_t i = 0; i < w->ntabs && !w->oom; i++) {
    const pend *t = &w->tabs[i];
    unsigned tried[3] = {0, 0, 0};
    for (int j = 0; t->addr && j < 3; j++) {
      const lenimm *near = NULL;
      size_t nd = LEN_WINDOW + 1;
      for (size_t k = 0; k < w->nlens; k++) {
        const lenimm *l = &w->lens[k];
        size_t dist = l->at > t->at ? l->at - t->at : t->at - l->at;
        /* 0xff: -fuzz code's counters saturate (CMPL reg, $0xff) */
        if (dist < nd && l->n != 0xff && l->n != tried[0] && l->n != tried[1] &&
            l->n != tried[2])
          near = l, nd = dist;
      }
      if (!near)
        break;
      tried[j] = near->n;
      if (scan_table(w, t->addr, near->n, 0))
        break;
    }
  }
  w->npend = w->ntabs = w->nlens = w->nregs = w->nstores = 0;
}

/* Whether the symbol name, of package path name[0..pl), is the target's
 * package's or its _test twin's. */
static bool in_tpkg(const walker *w, const char *name, size_t pl) {
  return pl >= w->tpkg_len && strncmp(name, w->tpkg, w->tpkg_len) == 0 &&
         (pl == w->tpkg_len ||
          (pl == w->tpkg_len + 5 && strncmp(name + pl - 5, "_test", 5) == 0));
}

/* The data of the target's package: every object symbol of <pkg> and
 * <pkg>_test (package variables, closures' and generic functions'
 * statics) in rodata or data (not .bss: what the package's init
 * computes) is read for string headers and, through slice headers, the
 * tables they point to. Other packages' data is not read: the standard
 * library's tables are what any target links. */
static void scan_objects(walker *w) {
  const cgofuzz_gobin_obj *o = w->obj;
  if (!w->str_lo)
    return;
  w->src = w->d->pkg_src;
  for (size_t i = 0; i < o->nsym && !w->oom; i++) {
    const cgofuzz_gobin_obj_sym *s = &o->sym[i];
    if (s->kind == CGOFUZZ_SYM_OBJECT && s->size >= 16 &&
        in_tpkg(w, s->name, pkg_len(s->name)))
      scan_words(w, s->value, s->value + s->size, 0);
  }
}

/* "TEXT <symbol>(SB) <file>": a new function. Functions of _test.go files
 * are mostly tests, full of tables of expected values: only the fuzz
 * targets and their closures are read there (where the package's code
 * they call is often inlined, its own copy gone). */
static void on_text(walker *w, const char *line) {
  flush_function(w);
  const char *name = line + 5; /* "TEXT " */
  size_t pl = pkg_len(name);
  size_t nl = strcspn(name, " ");
  w->src = in_tpkg(w, name, pl) ? w->d->pkg_src : w->d->module_src;
  const char *file = name + nl;
  size_t fl = strlen(file);
  w->skip = false;
  if (fl > 8 && !strcmp(file + fl - 8, "_test.go"))
    w->skip = !(pl < nl && !strncmp(name + pl + 1, "Fuzz", 4));
}

/* Go's register ABI: the first integer argument registers, in order. */
static const char *const amd64_args[] = {"AX", "BX", "CX", "DI",
                                         "SI", "R8", "R9", NULL};
static const char *const arm64_args[] = {"R0", "R1", "R2", "R3",
                                         "R4", "R5", "R6", NULL};

/* A callee that compares (or searches for) its string arguments; a string
 * keyed map's calls too: m["key"], and the entries of a map literal of up
 * to 25 (assigned one by one, the keys in registers). */
static bool is_compare_call(const char *op, size_t n) {
  static const char *const fns[] = {"runtime.libfuzzerHookStrCmp(",
                                    "runtime.libfuzzerHookEqualFold(",
                                    "runtime.memequal(",
                                    "runtime.cmpstring(",
                                    "internal/bytealg.",
                                    "bytes.",
                                    "strings.",
                                    "runtime.mapaccess1_faststr(",
                                    "runtime.mapaccess2_faststr(",
                                    "runtime.mapassign_faststr(",
                                    "runtime.mapdelete_faststr(",
                                    NULL};
  char tmp[128];
  if (n >= sizeof tmp)
    n = sizeof tmp - 1;
  memcpy(tmp, op, n);
  tmp[n] = 0;
  for (size_t i = 0; fns[i]; i++)
    if (!strncmp(tmp, fns[i], strlen(fns[i])))
      return true;
  return false;
}

static void add_pend(walker *w, pend **v, size_t *n, size_t *cap,
                     uint64_t addr) {
  if (*n == *cap) {
    size_t c = *cap ? *cap * 2 : 32;
    pend *p = realloc(*v, c * sizeof *p);
    if (!p) {
      w->oom = true;
      return;
    }
    *v = p;
    *cap = c;
  }
  (*v)[(*n)++] = (pend){addr, w->at};
}

/* An operand "disp(base)(index*scale)" whose base was LEAQ'd with an
 * address of data outside Go's strings: the base of a table indexed in a
 * loop (a map literal's keys, a static array ranged over), recorded with
 * the loop bound to come. An address only passed on (the static string
 * header of panic("..."), a type) is not a table. */
static void indexed_base(walker *w, const char *op, size_t n) {
  const char *ix = NULL;
  for (size_t i = 1; i + 1 < n && !ix; i++)
    if (op[i] == ')' && op[i + 1] == '(')
      ix = op + i;
  const char *lp = ix;
  while (lp && lp > op && *lp != '(')
    lp--;
  if (!ix || *lp != '(')
    return;
  const reg *r = reg_get(w, lp + 1, (size_t)(ix - lp - 1), false);
  if (r && r->kind == R_ADDR && w->at - r->at <= REG_AGE &&
      !in_strdata(w, r->v) && cgofuzz_gobin_obj_data_at(w->obj, r->v, 16))
    add_pend(w, &w->tabs, &w->ntabs, &w->cap_tabs, r->v);
}

/* Register r is written: the stores based on it are no longer pairs of
 * the ones to come. */
static void rebase(walker *w, reg *r) {
  r->kind = R_NONE;
  for (size_t i = 0; i < w->nstores; i++)
    if (!strcmp(w->stores[i].base, r->name))
      w->stores[i].kind = R_NONE;
}

/* Register r now holds address v: a string literal's start is kept for
 * the lengths to come. */
static void set_addr(walker *w, reg *r, uint64_t v) {
  r->kind = R_ADDR;
  r->v = v;
  if (in_strdata(w, v))
    add_pend(w, &w->pend, &w->npend, &w->cap_pend, v);
}

/* "DISP<suffix>", a displacement relative to the instruction: amd64's
 * "0x2bf03(IP)", arm64 ADRP's page offset "151552(PC)". */
static bool pc_rel(const char *op, size_t n, const char *suffix, uint64_t *v) {
  size_t sl = strlen(suffix);
  char tmp[32];
  if (n <= sl || n - sl >= sizeof tmp || strncmp(op + n - sl, suffix, sl))
    return false;
  memcpy(tmp, op, n - sl);
  tmp[n - sl] = 0;
  char *end;
  long long d = strtoll(tmp, &end, 0);
  if (*end || end == tmp)
    return false;
  *v = (uint64_t)d;
  return true;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

/* "NAME+OFF(SB)" or "NAME(SB)": an address objdump printed as a symbol
 * and offset, which it does for a Mach-O file's addresses ("LEAQ
 * runtime.rodata+1234(SB), AX"). Its leading '_' may be there or not. */
static bool sb_addr(const walker *w, const char *op, size_t n, uint64_t *v) {
  char name[256];
  if (n <= 4 || n - 4 >= sizeof name || strncmp(op + n - 4, "(SB)", 4))
    return false;
  memcpy(name, op, n - 4);
  name[n - 4] = 0;
  uint64_t off = 0;
  char *plus = strrchr(name, '+');
  if (plus) {
    char *end;
    off = strtoull(plus + 1, &end, 0);
    if (*end || end == plus + 1)
      return false;
    *plus = 0;
  }
  for (int strip = 0; strip < 2; strip++) {
    named key = {name + strip, 0};
    if (strip && name[0] != '_')
      break;
    const named *hit =
        bsearch(&key, w->names, w->nnames, sizeof *w->names, by_name);
    if (hit) {
      *v = hit->value + off;
      return true;
    }
  }
  return false;
}

/* arm64's MOVK "$(imm<<shift)" (or "$imm"): sets those 16 bits of v. */
static bool movk(const char *op, size_t n, uint64_t *v) {
  char tmp[40];
  if (n < 2 || n >= sizeof tmp || op[0] != '$')
    return false;
  memcpy(tmp, op + 1, n - 1);
  tmp[n - 1] = 0;
  char *p = tmp, *end;
  bool paren = *p == '(';
  p += paren;
  unsigned long long imm = strtoull(p, &end, 0), shift = 0;
  if (end == p || imm > 0xffff)
    return false;
  if (paren) {
    if (strncmp(end, "<<", 2) != 0)
      return false;
    p = end + 2;
    shift = strtoull(p, &end, 0);
    if (end == p || *end != ')' || end[1] || (shift & 15) || shift > 48)
      return false;
  } else if (*end) {
    return false;
  }
  *v = (*v & ~(0xffffull << shift)) | ((uint64_t)imm << shift);
  return true;
}

/* arm64's "STP (Ra, Rb), off(base)": Ra at off, Rb at off+8, each a store
 * (a string header: address and length in one instruction). */
static void on_pair_store(walker *w, const char *ops) {
  const char *comma = strstr(ops, ", ");
  const char *close = comma ? strstr(comma, "), ") : NULL;
  if (ops[0] != '(' || !comma || !close)
    return;
  const char *mem = close + 3;
  size_t ml = strcspn(mem, " \t");
  const char *lp = memchr(mem, '(', ml);
  char dst[48];
  if (!lp || ml >= sizeof dst)
    return;
  char *end;
  long long off = strtoll(mem, &end, 0);
  if (end != lp && mem != lp)
    return;
  if (mem == lp)
    off = 0;
  on_store(w, ops + 1, (size_t)(comma - ops - 1), mem, ml);
  int k = snprintf(dst, sizeof dst, "%lld%.*s", off + 8,
                   (int)(ml - (size_t)(lp - mem)), lp);
  if (k > 0 && (size_t)k < sizeof dst)
    on_store(w, comma + 2, (size_t)(close - comma - 2), dst, (size_t)k);
}

/* One instruction: addr, its length in bytes, and its text. */
static void on_insn(walker *w, uint64_t addr, size_t len, const char *asmtxt) {
  char m[16];
  size_t ml = strcspn(asmtxt, " ");
  if (ml == 0 || ml >= sizeof m)
    return;
  memcpy(m, asmtxt, ml);
  m[ml] = 0;
  const char *ops = asmtxt + ml;
  while (*ops == ' ')
    ops++;
  /* operands: split at ", " */
  const char *op[4];
  size_t opl[4], nop = 0;
  for (const char *p = ops; *p && nop < 4;) {
    const char *c = strstr(p, ", ");
    size_t l = c ? (size_t)(c - p) : strlen(p);
    while (l && (p[l - 1] == ' ' || p[l - 1] == '\t'))
      l--;
    op[nop] = p;
    opl[nop++] = l;
    p = c ? c + 2 : p + strlen(p);
  }
  w->at++;
  if (w->skip)
    return;
  int64_t imm;
  for (size_t i = 0; i < nop; i++)
    indexed_base(w, op[i], opl[i]);

  if (!strcmp(m, "CALL") && nop &&
      !strncmp(op[0], "runtime.gcWriteBarrier", 22)) {
    /* keeps every register but R11, its buffer (Go 1.21 on) */
    reg *r11 = reg_get(w, "R11", 3, false);
    if (r11)
      rebase(w, r11);
    return;
  }
  if (!strcmp(m, "CALL") || !strcmp(m, "BL")) {
    const char *a0 = w->arm64 ? "R0" : "AX";
    int cw = 0;
    if (nop && strstr(op[0], "runtime.libfuzzerTraceConstCmp2("))
      cw = 2;
    else if (nop && strstr(op[0], "runtime.libfuzzerTraceConstCmp4("))
      cw = 4;
    else if (nop && strstr(op[0], "runtime.libfuzzerTraceConstCmp8("))
      cw = 8;
    const reg *r = cw ? reg_fresh(w, a0, R_IMM) : NULL;
    if (r)
      note(w, cgofuzz_gobin_sink_int(w->d, r->v, cw, w->src));
    if (nop && is_compare_call(op[0], opl[0])) {
      const char *const *ar = w->arm64 ? arm64_args : amd64_args;
      for (size_t i = 0; ar[i + 1]; i++)
        str_arg(w, ar[i], ar[i + 1]);
      /* runtime.memequal(p, q, size): either pointer with the size */
      if (strstr(op[0], "runtime.memequal(")) {
        str_arg(w, ar[0], ar[2]);
        str_arg(w, ar[1], ar[2]);
      }
    }
    w->nregs = w->nstores = 0; /* calls clobber registers and memory */
    return;
  }
  int cw = cmp_width(w, m);
  if ((cw || !strncmp(m, "CMP", 3)) && nop == 2) {
    for (size_t i = 0; i < 2; i++) {
      if (parse_imm(op[i], opl[i], &imm)) {
        add_len(w, imm); /* a length check or loop bound */
        if (cw)
          note(w, cgofuzz_gobin_sink_int(w->d, (uint64_t)imm, cw, w->src));
      } else if (cw && is_reg(op[i], opl[i])) {
        const reg *r = reg_get(w, op[i], opl[i], false);
        if (r && r->kind == R_IMM && w->at - r->at <= REG_AGE)
          note(w, cgofuzz_gobin_sink_int(w->d, r->v, cw, w->src));
      }
    }
    return;
  }
  if (!strcmp(m, w->arm64 ? "MOVD" : "MOVQ") && nop == 2 &&
      on_store(w, op[0], opl[0], op[1], opl[1]))
    return;
  if (w->arm64 && !strcmp(m, "STP")) {
    on_pair_store(w, ops);
    return;
  }
  if (nop < 2 || !is_reg(op[nop - 1], opl[nop - 1]))
    return;
  reg *dst = reg_get(w, op[nop - 1], opl[nop - 1], true);
  if (!dst)
    return;
  if (w->arm64 && !strcmp(m, "MOVK") && nop == 2 && dst->kind == R_IMM &&
      w->at - dst->at <= REG_AGE && movk(op[0], opl[0], &dst->v)) {
    dst->at = w->at; /* a 32- or 64-bit constant, 16 bits at a time */
    return;
  }
  /* arm64's ADD Ri<<k, Rbase, Rd: the address of element Ri of a table
   * at Rbase (a map literal's string keys, 16 bytes each), as amd64's
   * indexed operands are. */
  if (w->arm64 && !strcmp(m, "ADD") && nop == 3 && memchr(op[0], '<', opl[0])) {
    const reg *b = reg_fresh_n(w, op[1], opl[1], R_ADDR);
    if (b && !in_strdata(w, b->v) &&
        cgofuzz_gobin_obj_data_at(w->obj, b->v, 16))
      add_pend(w, &w->tabs, &w->ntabs, &w->cap_tabs, b->v);
  }
  /* arm64's ADD $lo, Rpage, Rd completes ADRP's page into an address. */
  const reg *page = NULL;
  if (w->arm64 && !strcmp(m, "ADD") && (nop == 3 || nop == 2) &&
      parse_imm(op[0], opl[0], &imm) && imm >= 0 && imm < 4096)
    page = reg_fresh_n(w, op[nop - 2], opl[nop - 2], R_PAGE);
  uint64_t page_v = page ? page->v : 0;
  rebase(w, dst);
  dst->at = w->at;
  uint64_t a;
  if (page) {
    set_addr(w, dst, page_v + (uint64_t)imm);
  } else if (!strncmp(m, "MOV", 3) && nop == 2 &&
             parse_imm(op[0], opl[0], &imm)) {
    dst->kind = R_IMM;
    dst->v = (uint64_t)imm;
  } else if (!strcmp(m, "LEAQ") && nop == 2 &&
             pc_rel(op[0], opl[0], "(IP)", &a)) {
    set_addr(w, dst, addr + len + a);
  } else if (!strcmp(m, "LEAQ") && nop == 2 && sb_addr(w, op[0], opl[0], &a)) {
    set_addr(w, dst, a); /* Mach-O: objdump names the symbol */
  } else if (!strcmp(m, "ADRP") && nop == 2 &&
             pc_rel(op[0], opl[0], "(PC)", &a)) {
    dst->kind = R_PAGE;
    dst->v = (addr & ~(uint64_t)0xfff) + a;
  }
}

/* One line of `go tool objdump` output. */
static void on_line(walker *w, char *line) {
  if (!strncmp(line, "TEXT ", 5)) {
    on_text(w, line);
    return;
  }
  /* "  file.go:N\t0xADDR\t\tHEX\t\tASM\t..." */
  char *f[4];
  size_t nf = 0;
  for (char *p = line; *p && nf < 4;) {
    while (*p == '\t')
      p++;
    if (!*p)
      break;
    f[nf++] = p;
    char *t = strchr(p, '\t');
    if (!t)
      break;
    *t = 0;
    p = t + 1;
  }
  if (nf < 4 || strncmp(f[1], "0x", 2) != 0)
    return;
  char *end;
  uint64_t addr = strtoull(f[1], &end, 16);
  if (*end)
    return;
  size_t hl = strlen(f[2]);
  on_insn(w, addr, hl / 2, f[3]);
}

/* A reading of a binary's code: `go tool objdump` writing into an
 * unlinked temporary file while the run goes on. Owns the mapped image,
 * the walker (which points into it) and the package name. */
struct cgofuzz_gobin_godict_job {
  cgofuzz_gobin_obj e;
  walker w;
  cgofuzz_gobin_sink sink; /* the caller's, copied */
  cgofuzz_buf tpkg;
  pid_t pid;  /* 0 when no objdump runs */
  FILE *out;  /* its stdout */
  int64_t t0; /* when it started */
  bool done;  /* the code was read (or given up on) */
};

/* Stops objdump if it still runs. The go command builds objdump into its
 * cache first (Go 1.24 on), in a work directory it leaves behind when a
 * signal stops it: that directory is in the run's own (spawn's tmpdir,
 * scratch.h), which goes however the run ends. */
static void job_close(cgofuzz_gobin_godict_job *j) {
  if (j->pid > 0) {
    kill(j->pid, SIGKILL);
    cgofuzz_spawn_wait(j->pid, 2000, NULL);
    j->pid = 0;
  }
  if (j->out)
    fclose(j->out);
  j->out = NULL;
  free(j->w.pend);
  free(j->w.tabs);
  free(j->w.lens);
  free(j->w.names);
  j->w.names = NULL;
  j->w.nnames = 0;
  j->w.pend = j->w.tabs = NULL;
  j->w.lens = NULL;
  cgofuzz_gobin_obj_close(&j->e);
  cgofuzz_buf_free(&j->tpkg);
  j->done = true;
}

/* Opens the image, finds the target's package (the symbol <pkg>.<target>)
 * and Go's string data, and sets the walker up. */
static int job_open(cgofuzz_gobin_godict_job *j, const cgofuzz_gobin_sink *d,
                    const char *binary, const char *target, cgofuzz_err *err) {
  cgofuzz_gobin_obj *e = &j->e;
  walker *w = &j->w;
  if (cgofuzz_gobin_obj_open(e, binary, true, err) != 0)
    return -1;
  if (!e->nsym) {
    cgofuzz_errf(err, 0, "%s: no symbol table (stripped)", binary);
    return -1;
  }
  size_t tl = strlen(target);
  for (size_t i = 0; i < e->nsym; i++) {
    const cgofuzz_gobin_obj_sym *s = &e->sym[i];
    const char *name = s->name;
    size_t n = strlen(name);
    if (!strcmp(name, "go:string.*") || !strcmp(name, "go.string.*")) {
      w->str_lo = s->value; /* go.string.* before Go 1.20 */
      continue;
    }
    if (j->tpkg.len || s->kind != CGOFUZZ_SYM_FUNC || n <= tl + 1 ||
        strcmp(name + n - tl, target) != 0 || name[n - tl - 1] != '.' ||
        pkg_len(name) != n - tl - 1)
      continue;
    size_t pl = n - tl - 1;
    if (pl > 5 && !strncmp(name + pl - 5, "_test", 5))
      pl -= 5;
    cgofuzz_buf_append(&j->tpkg, name, pl);
  }
  if (!j->tpkg.len) {
    cgofuzz_errf(err, 0, "%s: no function symbol <package>.%s", binary, target);
    return -1;
  }
  if (w->str_lo) { /* Go's string data end where the next symbol starts */
    w->str_hi = ~0ull;
    for (size_t i = 0; i < e->nsym; i++)
      if (e->sym[i].value > w->str_lo && e->sym[i].value < w->str_hi)
        w->str_hi = e->sym[i].value;
    if (w->str_hi == ~0ull)
      w->str_lo = w->str_hi = 0;
  }
  w->obj = e;
  j->sink = *d;
  w->d = &j->sink;
  w->arm64 = e->arch == CGOFUZZ_ARCH_ARM64;
  w->tpkg = (const char *)cgofuzz_buf_cstr(&j->tpkg);
  w->tpkg_len = j->tpkg.len;
  if (!w->tpkg) {
    cgofuzz_errf(err, 0, "out of memory");
    return -1;
  }
  return 0;
}

/* The symbols by name, for the operands objdump prints as sym+off(SB)
 * (every address of a Mach-O file; data objects' on ELF): built when
 * objdump's output is read, not at start, where only the data is. */
static int index_names(walker *w) {
  const cgofuzz_gobin_obj *e = w->obj;
  w->names = calloc(e->nsym ? e->nsym : 1, sizeof *w->names);
  if (!w->names)
    return -1;
  for (size_t i = 0; i < e->nsym; i++)
    if (e->sym[i].name[0])
      w->names[w->nnames++] = (named){e->sym[i].name, e->sym[i].value};
  qsort(w->names, w->nnames, sizeof *w->names, by_name);
  return 0;
}

int cgofuzz_gobin_godict_data(const cgofuzz_gobin_sink *d, const char *binary,
                              const char *target, size_t *added,
                              cgofuzz_err *err) {
  cgofuzz_gobin_godict_job j;
  memset(&j, 0, sizeof j);
  *added = 0;
  int rc = job_open(&j, d, binary, target, err);
  if (rc == 0) {
    scan_objects(&j.w);
    *added = j.w.added;
    if (j.w.oom) {
      cgofuzz_errf(err, 0, "out of memory");
      rc = -1;
    }
  }
  job_close(&j);
  return rc;
}

/* The functions `go tool objdump -s` disassembles: those of the target's
 * package, its _test twin and the rest of the main module (from the
 * binary's build info: running `go version -m` cost 25 ms before the
 * first worker could start). */
static void objdump_re(const char *binary, const cgofuzz_buf *tpkg,
                       cgofuzz_buf *re) {
  char modpath[1024];
  cgofuzz_err err = {0};
  if (cgofuzz_gobin_modpath(binary, modpath, sizeof modpath, &err) != 1)
    modpath[0] = '\0'; /* the target's package alone */
  cgofuzz_buf_puts(re, "^(?:");
  quote_re(re, (const char *)tpkg->data, tpkg->len);
  cgofuzz_buf_puts(re, "|");
  quote_re(re, (const char *)tpkg->data, tpkg->len);
  cgofuzz_buf_puts(re, "_test");
  if (modpath[0]) {
    cgofuzz_buf_puts(re, "|");
    quote_re(re, modpath, strlen(modpath));
    cgofuzz_buf_puts(re, "|");
    quote_re(re, modpath, strlen(modpath));
    cgofuzz_buf_puts(re, "/[^.]*");
  }
  cgofuzz_buf_puts(re, ")\\.");
}

int cgofuzz_gobin_godict_code_start(const cgofuzz_gobin_sink *d,
                                    const char *binary, const char *target,
                                    cgofuzz_gobin_godict_job **out,
                                    cgofuzz_err *err) {
  *out = NULL;
  cgofuzz_gobin_godict_job *j = calloc(1, sizeof *j);
  if (!j) {
    cgofuzz_errf(err, 0, "out of memory");
    return -1;
  }
  char *go = NULL;
  cgofuzz_buf re = {0};
  int rc = -1;
  if (job_open(j, d, binary, target, err) != 0)
    goto fail;
  if (!(go = find_go())) {
    cgofuzz_errf(err, 0,
                 "go is not in $PATH: no constants taken from the code of %s",
                 binary);
    goto fail;
  }
  objdump_re(binary, &j->tpkg, &re);
  if (!(j->out = tmpfile())) {
    cgofuzz_errf(err, errno, "a temporary file for go tool objdump");
    goto fail;
  }
  char *oargv[] = {
      go, "tool", "objdump", "-s", cgofuzz_buf_cstr(&re), (char *)binary, NULL};
  cgofuzz_spawn sp = {.path = go,
                      .argv = oargv,
                      .stdout_fd = fileno(j->out),
                      .stderr_fd = -1,
                      .tmpdir = cgofuzz_scratch_dir(),
                      .die_with_parent = true};
  j->t0 = cgofuzz_mono_ms();
  if (!cgofuzz_buf_cstr(&re) || (j->pid = cgofuzz_spawn_start(&sp)) < 0) {
    j->pid = 0;
    cgofuzz_errf(err, errno, "starting go tool objdump %s", binary);
    goto fail;
  }
  *out = j;
  rc = 0;
fail:
  if (rc != 0) {
    job_close(j);
    free(j);
  }
  free(go);
  cgofuzz_buf_free(&re);
  return rc;
}

/* Reads objdump's output in f, a line at a time, into the job's
 * dictionary: 1 with *added set, or -1 with err set (out of memory). */
static int read_objdump(cgofuzz_gobin_godict_job *j, FILE *f, size_t *added,
                        cgofuzz_err *err) {
  walker *w = &j->w;
  w->src = w->d->module_src;
  if (index_names(w) != 0)
    w->oom = true;
  rewind(f);
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while (!w->oom && (n = getline(&line, &cap, f)) >= 0) {
    if (n > 0 && line[n - 1] == '\n')
      line[n - 1] = 0;
    on_line(w, line);
  }
  free(line);
  flush_function(w);
  *added = w->added;
  if (w->oom) {
    cgofuzz_errf(err, 0, "out of memory");
    return -1;
  }
  return 1;
}

int cgofuzz_gobin_godict_code_read(const cgofuzz_gobin_sink *d,
                                   const char *binary, const char *target,
                                   FILE *f, size_t *added, cgofuzz_err *err) {
  cgofuzz_gobin_godict_job j;
  memset(&j, 0, sizeof j);
  *added = 0;
  int rc = job_open(&j, d, binary, target, err);
  if (rc == 0)
    rc = read_objdump(&j, f, added, err);
  job_close(&j);
  return rc;
}

int cgofuzz_gobin_godict_code_poll(cgofuzz_gobin_godict_job *j, bool block,
                                   size_t *added, cgofuzz_err *err) {
  *added = 0;
  if (j->done)
    return 1;
  int st = 0;
  int64_t left = OBJDUMP_TIMEOUT_MS - (cgofuzz_mono_ms() - j->t0);
  if (block) {
    bool timed_out = false;
    st = cgofuzz_spawn_wait(j->pid, left > 0 ? (int)left : 0, &timed_out);
    j->pid = 0; /* reaped (killed first when the time was up) */
    if (timed_out)
      st = -1;
  } else {
    pid_t r;
    while ((r = waitpid(j->pid, &st, WNOHANG)) < 0 && errno == EINTR)
      ;
    if (r == 0 && left > 0)
      return 0;
    if (r <= 0)
      st = -1; /* too long (job_close kills it), or lost */
    if (r != 0)
      j->pid = 0;
  }
  if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    cgofuzz_errf(err, 0, "go tool objdump %s: no constants taken from its code",
                 st < 0 ? "took too long" : "failed");
    job_close(j);
    return -1;
  }
  int rc = read_objdump(j, j->out, added, err);
  job_close(j);
  return rc;
}

void cgofuzz_gobin_godict_code_free(cgofuzz_gobin_godict_job *j) {
  if (!j)
    return;
  job_close(j);
  free(j);
}

int cgofuzz_gobin_godict_all(const cgofuzz_gobin_sink *d, const char *binary,
                             const char *target, size_t *added,
                             cgofuzz_err *err) {
  size_t code = 0, data = 0;
  cgofuzz_gobin_godict_job *j = NULL;
  int rc = cgofuzz_gobin_godict_code_start(d, binary, target, &j, err);
  if (rc == 0) {
    rc = cgofuzz_gobin_godict_code_poll(j, true, &code, err) == 1 ? 0 : -1;
    cgofuzz_gobin_godict_code_free(j);
  }
  /* The data needs no go: taken when the code could not be read too. */
  cgofuzz_err derr = {0};
  if (cgofuzz_gobin_godict_data(d, binary, target, &data, &derr) != 0 &&
      rc == 0) {
    *err = derr;
    rc = -1;
  }
  *added = code + data;
  return rc;
}

int cgofuzz_gobin_sink_int(const cgofuzz_gobin_sink *s, uint64_t v, int width,
                           int src) {
  uint64_t mask = width == 8 ? ~0ull : (1ull << (8 * width)) - 1;
  v &= mask;
  if (v < 0x100 || v > mask - 0x100)
    return 0; /* 0..255 and -256..-1: Go's mutator gets there itself */
  uint8_t le[8], be[8];
  for (int i = 0; i < width; i++) {
    le[i] = (uint8_t)(v >> (8 * i));
    be[width - 1 - i] = le[i];
  }
  int added = 0;
  for (int o = 0; o < 2; o++) {
    int r = s->add(s->ctx, o ? be : le, (size_t)width, src, width, o == 1);
    if (r < 0)
      return -1;
    added += r;
  }
  return added;
}
