/*
 * coord_godict.c: a dictionary taken from a Go test binary's code.
 *
 * A `go test -c -fuzz` binary has no comparison feedback, but its machine
 * code still says what it compares with. Steps:
 *  1. the ELF symbol table names the fuzz target's package (the symbol
 *     <pkg>.<Target>) and the range of Go's string data (go:string.* up to
 *     the next symbol);
 *  2. `go version -m` names the main module, and `go tool objdump -s`
 *     disassembles the functions of the target's package (and its _test
 *     twin) and of the rest of its module;
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
 *        strings): an argument pair (pointer, length) in consecutive
 *        argument registers that is a LEAQ'd address and an immediate
 *        (2..256) is read from the file (memequal: either pointer with its
 *        size argument);
 *      - any other LEAQ of an address inside Go's string data (a literal
 *        indexed in a loop, ...) with the immediates 2..64 compared with
 *        within 24 instructions (a loop bound, a length check) as its
 *        candidate lengths, the two nearest.
 *    Functions of _test.go files are skipped (test tables) except the
 *    fuzz targets (Fuzz*) and their closures.
 * Immediates 0..255 (and -256..-1) are left out: Go's mutator reaches them
 * on its own. Tokens of the target's package come first in weight
 * (CGOFUZZ_DICT_BINARY) before the rest of the module's
 * (CGOFUZZ_DICT_MODULE).
 * The instruction syntax is Go's (cmd/objdump): linux/amd64 is read fully;
 * on arm64 only comparisons with immediates and the instrumentation calls.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coord_internal.h"
#include "spawn.h"

#define OBJDUMP_TIMEOUT_MS 120000
#define REG_AGE 12    /* instructions an immediate stays usable */
#define LEN_WINDOW 24 /* instructions around a LEAQ for its length */
#define MAX_STR_TOKEN 256

typedef struct elfimg {
  FILE *f;
  Elf64_Ehdr eh;
  Elf64_Shdr *sh;
  Elf64_Sym *sym;
  size_t nsym;
  char *str;
  size_t str_len;
} elfimg;

static void elf_close(elfimg *e) {
  if (e->f)
    fclose(e->f);
  free(e->sh);
  free(e->sym);
  free(e->str);
  memset(e, 0, sizeof *e);
}

static void *read_at(FILE *f, uint64_t off, uint64_t n) {
  if (n > ((uint64_t)512 << 20))
    return NULL;
  void *p = malloc(n ? n : 1);
  if (p && (fseek(f, (long)off, SEEK_SET) != 0 || fread(p, 1, n, f) != n)) {
    free(p);
    p = NULL;
  }
  return p;
}

static int elf_open(elfimg *e, const char *path) {
  memset(e, 0, sizeof *e);
  if (!(e->f = fopen(path, "rb")))
    return -1;
  if (fread(&e->eh, sizeof e->eh, 1, e->f) != 1 ||
      memcmp(e->eh.e_ident, ELFMAG, 4) != 0 ||
      e->eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      e->eh.e_shentsize != sizeof(Elf64_Shdr) || e->eh.e_shnum == 0)
    return -1;
  e->sh = read_at(e->f, e->eh.e_shoff,
                  (uint64_t)e->eh.e_shnum * sizeof(Elf64_Shdr));
  if (!e->sh)
    return -1;
  for (size_t i = 0; i < e->eh.e_shnum; i++) {
    const Elf64_Shdr *s = &e->sh[i];
    if (s->sh_type != SHT_SYMTAB || s->sh_link >= e->eh.e_shnum ||
        s->sh_entsize != sizeof(Elf64_Sym))
      continue;
    const Elf64_Shdr *st = &e->sh[s->sh_link];
    e->sym = read_at(e->f, s->sh_offset, s->sh_size);
    e->str = read_at(e->f, st->sh_offset, st->sh_size + 0);
    if (!e->sym || !e->str)
      return -1;
    e->nsym = s->sh_size / sizeof(Elf64_Sym);
    e->str_len = st->sh_size;
    return 0;
  }
  return -1; /* stripped: no symbols */
}

static const char *sym_name(const elfimg *e, const Elf64_Sym *s) {
  if (s->st_name >= e->str_len ||
      !memchr(e->str + s->st_name, 0, e->str_len - s->st_name))
    return "";
  return e->str + s->st_name;
}

/* Reads n bytes at virtual address va of a file-backed, read-only
 * allocated section; NULL if they are not all in one. */
static uint8_t *elf_read_va(const elfimg *e, uint64_t va, size_t n) {
  for (size_t i = 0; i < e->eh.e_shnum; i++) {
    const Elf64_Shdr *s = &e->sh[i];
    if (!(s->sh_flags & SHF_ALLOC) || (s->sh_flags & SHF_EXECINSTR) ||
        s->sh_type == SHT_NOBITS || va < s->sh_addr ||
        va + n > s->sh_addr + s->sh_size)
      continue;
    return read_at(e->f, s->sh_offset + (va - s->sh_addr), n);
  }
  return NULL;
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
    if (access(coord_cstr(&b), X_OK) == 0)
      return (char *)b.data;
    p += l + (e ? 1 : 0);
  }
  cgofuzz_buf_free(&b);
  return NULL;
}

static int run_go(const char *go, char *const argv[], cgofuzz_buf *out) {
  cgofuzz_spawn sp = {.path = go, .argv = argv, .stderr_fd = -1};
  int st = cgofuzz_spawn_run(&sp, out, false, OBJDUMP_TIMEOUT_MS);
  return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static void quote_re(cgofuzz_buf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (strchr("\\.+*?()|[]{}^$", s[i]))
      cgofuzz_buf_putc(b, '\\');
    cgofuzz_buf_putc(b, (uint8_t)s[i]);
  }
}

/* --- reading the disassembly */

enum { R_NONE, R_IMM, R_ADDR };

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

typedef struct walker {
  const elfimg *elf;
  cgofuzz_coord_dict *d;
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

static const reg *reg_fresh(walker *w, const char *name, int kind) {
  const reg *r = reg_get(w, name, strlen(name), false);
  return r && r->kind == kind && w->at - r->at <= REG_AGE ? r : NULL;
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

static void add_len(walker *w, int64_t v) {
  if (v < 2 || v > 64)
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
  uint8_t *p = elf_read_va(w->elf, addr, n);
  if (p)
    note(w, cgofuzz_coord_dict_add(w->d, p, n, w->src, 0, false));
  free(p);
}

/* A string argument pair of an instrumentation call. */
static void str_arg(walker *w, const char *preg, const char *lreg) {
  const reg *p = reg_fresh(w, preg, R_ADDR);
  const reg *l = reg_fresh(w, lreg, R_IMM);
  if (p && l && l->v >= 2 && l->v <= MAX_STR_TOKEN) {
    add_str(w, p->v, (size_t)l->v);
    for (size_t i = 0; i < w->npend; i++)
      if (w->pend[i].addr == p->v)
        w->pend[i].addr = 0; /* its length is known */
  }
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
      if (dist > LEN_WINDOW || p->addr + l->n > w->str_hi || l->n == best[0] ||
          l->n == best[1])
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
  w->npend = w->nlens = w->nregs = 0;
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
  w->src = CGOFUZZ_DICT_MODULE;
  if (pl >= w->tpkg_len && strncmp(name, w->tpkg, w->tpkg_len) == 0 &&
      (pl == w->tpkg_len ||
       (pl == w->tpkg_len + 5 && strncmp(name + pl - 5, "_test", 5) == 0)))
    w->src = CGOFUZZ_DICT_BINARY;
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

/* A callee that compares (or searches for) its string arguments. */
static bool is_compare_call(const char *op, size_t n) {
  static const char *const fns[] = {"runtime.libfuzzerHookStrCmp(",
                                    "runtime.libfuzzerHookEqualFold(",
                                    "runtime.memequal(",
                                    "runtime.cmpstring(",
                                    "internal/bytealg.",
                                    "bytes.",
                                    "strings.",
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
      note(w, cgofuzz_dict_add_int(w->d, r->v, cw, w->src));
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
    w->nregs = 0; /* calls clobber every register */
    return;
  }
  int cw = cmp_width(w, m);
  if ((cw || !strncmp(m, "CMP", 3)) && nop == 2) {
    for (size_t i = 0; i < 2; i++) {
      if (parse_imm(op[i], opl[i], &imm)) {
        add_len(w, imm); /* a length check or loop bound */
        if (cw)
          note(w, cgofuzz_dict_add_int(w->d, (uint64_t)imm, cw, w->src));
      } else if (cw && is_reg(op[i], opl[i])) {
        const reg *r = reg_get(w, op[i], opl[i], false);
        if (r && r->kind == R_IMM && w->at - r->at <= REG_AGE)
          note(w, cgofuzz_dict_add_int(w->d, r->v, cw, w->src));
      }
    }
    return;
  }
  if (nop < 2 || !is_reg(op[nop - 1], opl[nop - 1]))
    return;
  reg *dst = reg_get(w, op[nop - 1], opl[nop - 1], true);
  if (!dst)
    return;
  dst->kind = R_NONE;
  dst->at = w->at;
  if (!strncmp(m, "MOV", 3) && nop == 2 && parse_imm(op[0], opl[0], &imm)) {
    dst->kind = R_IMM;
    dst->v = (uint64_t)imm;
  } else if (!strcmp(m, "LEAQ") && nop == 2 && opl[0] > 4 &&
             !strncmp(op[0] + opl[0] - 4, "(IP)", 4)) {
    char tmp[32];
    size_t dl = opl[0] - 4;
    if (dl >= sizeof tmp)
      return;
    memcpy(tmp, op[0], dl);
    tmp[dl] = 0;
    char *end;
    long long disp = strtoll(tmp, &end, 0);
    if (*end)
      return;
    dst->kind = R_ADDR;
    dst->v = addr + len + (uint64_t)disp;
    if (dst->v >= w->str_lo && dst->v < w->str_hi) {
      if (w->npend == w->cap_pend) {
        size_t cap = w->cap_pend ? w->cap_pend * 2 : 32;
        pend *p = realloc(w->pend, cap * sizeof *p);
        if (!p) {
          w->oom = true;
          return;
        }
        w->pend = p;
        w->cap_pend = cap;
      }
      w->pend[w->npend++] = (pend){dst->v, w->at};
    }
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

int cgofuzz_coord_dict_from_binary(cgofuzz_coord_dict *d, const char *binary,
                                   const char *target, size_t *added,
                                   cgofuzz_err *err) {
  elfimg e;
  walker w;
  memset(&w, 0, sizeof w);
  cgofuzz_buf out = {0}, re = {0}, tpkg = {0};
  char *go = NULL, *modpath = NULL;
  int rc = -1;
  *added = 0;
  if (elf_open(&e, binary) != 0) {
    cgofuzz_errf(err, 0, "%s: not an ELF file with a symbol table", binary);
    goto done;
  }
  size_t tl = strlen(target);
  for (size_t i = 0; i < e.nsym; i++) {
    const Elf64_Sym *s = &e.sym[i];
    const char *name = sym_name(&e, s);
    size_t n = strlen(name);
    if (!strcmp(name, "go:string.*")) {
      w.str_lo = s->st_value;
      continue;
    }
    if (tpkg.len || ELF64_ST_TYPE(s->st_info) != STT_FUNC || n <= tl + 1 ||
        strcmp(name + n - tl, target) != 0 || name[n - tl - 1] != '.' ||
        pkg_len(name) != n - tl - 1)
      continue;
    size_t pl = n - tl - 1;
    if (pl > 5 && !strncmp(name + pl - 5, "_test", 5))
      pl -= 5;
    cgofuzz_buf_append(&tpkg, name, pl);
  }
  if (!tpkg.len) {
    cgofuzz_errf(err, 0, "%s: no function symbol <package>.%s", binary, target);
    goto done;
  }
  if (w.str_lo) { /* go:string.* ends where the next symbol starts */
    w.str_hi = ~0ull;
    for (size_t i = 0; i < e.nsym; i++)
      if (e.sym[i].st_value > w.str_lo && e.sym[i].st_value < w.str_hi)
        w.str_hi = e.sym[i].st_value;
    if (w.str_hi == ~0ull)
      w.str_lo = w.str_hi = 0;
  }
  if (!(go = find_go())) {
    cgofuzz_errf(err, 0, "go is not in $PATH: no constants taken from %s",
                 binary);
    goto done;
  }
  char *vargv[] = {go, "version", "-m", (char *)binary, NULL};
  if (run_go(go, vargv, &out) == 0) {
    cgofuzz_buf_putc(&out, 0);
    const char *m = strstr((const char *)out.data, "\n\tmod\t");
    if (m) {
      m += 6;
      modpath = strndup(m, strcspn(m, "\t\n"));
    }
  }
  cgofuzz_buf_puts(&re, "^(?:");
  quote_re(&re, (const char *)tpkg.data, tpkg.len);
  cgofuzz_buf_puts(&re, "|");
  quote_re(&re, (const char *)tpkg.data, tpkg.len);
  cgofuzz_buf_puts(&re, "_test");
  if (modpath && *modpath) {
    cgofuzz_buf_puts(&re, "|");
    quote_re(&re, modpath, strlen(modpath));
    cgofuzz_buf_puts(&re, "|");
    quote_re(&re, modpath, strlen(modpath));
    cgofuzz_buf_puts(&re, "/[^.]*");
  }
  cgofuzz_buf_puts(&re, ")\\.");
  char *oargv[] = {
      go, "tool", "objdump", "-s", coord_cstr(&re), (char *)binary, NULL};
  out.len = 0;
  if (run_go(go, oargv, &out) != 0) {
    cgofuzz_errf(err, 0, "go tool objdump %s failed: no constants taken",
                 binary);
    goto done;
  }
  w.elf = &e;
  w.d = d;
  w.arm64 = e.eh.e_machine == EM_AARCH64;
  w.tpkg = (const char *)coord_cstr(&tpkg);
  w.tpkg_len = tpkg.len;
  w.src = CGOFUZZ_DICT_MODULE;
  cgofuzz_buf_putc(&out, 0);
  for (char *p = (char *)out.data; *p && !w.oom;) {
    char *nl = strchr(p, '\n');
    if (nl)
      *nl = 0;
    on_line(&w, p);
    p = nl ? nl + 1 : p + strlen(p);
  }
  flush_function(&w);
  if (w.oom) {
    cgofuzz_errf(err, 0, "out of memory");
    goto done;
  }
  *added = w.added;
  rc = 0;
done:
  free(w.pend);
  free(w.lens);
  free(go);
  free(modpath);
  cgofuzz_buf_free(&out);
  cgofuzz_buf_free(&re);
  cgofuzz_buf_free(&tpkg);
  elf_close(&e);
  return rc;
}
