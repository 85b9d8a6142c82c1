/*
 * cgo_stack.c: the C frames of a crash in C code, in Go's own report of it,
 * for a Go test binary `cgofuzz cgo-cc` linked (docs/cgo.md).
 *
 * When a signal comes in C code called through cgo, Go prints the Go
 * frames only, unless runtime.SetCgoTraceback gave it a traceback function
 * (which unwinds the C stack from the signal's context) and a symbolizer
 * (which names each frame). No fuzz target calls SetCgoTraceback, so a
 * constructor here fills in what it would have set, runtime.cgoTraceback
 * and runtime.cgoSymbolizer (and, from the releases that call them through
 * runtime/cgo, its cgo_traceback_function and cgo_symbolizer_function),
 * before Go's runtime starts: variables found by name in the binary's own
 * symbol table (which cgo-cc keeps). Go's report of a SIGSEGV in memcpy then
 * names memcpy and the package's C function that called it, in the fuzzing
 * worker and when `go test -run` reproduces alike, and cgofuzz's death
 * explainer reads those frames. Nothing is set when the binary calls
 * SetCgoTraceback itself (its symbol is linked: Go would panic at a second,
 * different setting), when the symbol table is gone, or with
 * CGOFUZZ_CGO_TRACEBACK=0.
 *
 * Invariants: the traceback and the symbolizer run inside a signal handler
 * (Go calls them from its handler, on the signal stack): they allocate
 * nothing, take no lock, call only system calls and dladdr, and read stack
 * memory only through process_vm_readv, which fails rather than faults on
 * a bad address. The unwinding is by frame pointers (cgo-cc compiles with
 * -fno-omit-frame-pointer): the faulting pc; when it lies outside the
 * binary (a libc function that keeps no frame), the first return address
 * into the binary's C code found on the stack; then the chain of saved
 * frame pointers, which ends at the first return address that is not the
 * binary's C code (Go's asmcgocall), or at the cgo loop's own frame
 * (cgofuzz_cgo_loop_fp): a crash in one of its mutants then lists the
 * same C frames as the same crash in the real call. A caller's pc is its
 * return address less one, inside the call: after a call that does not
 * return (assert's __assert_fail) the return address is already the next
 * function's. Like cgo_hooks.c it calls no string function (they are
 * intercepted). Defines only cgofuzz_cgo_* names. x86-64 Linux only;
 * elsewhere the constructor does nothing.
 */
#if defined(__linux__) && defined(__x86_64__)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#include "cgo_loop.h"

/* runtime.cgoTracebackArg and runtime.cgoSymbolizerArg, as
 * runtime.SetCgoTraceback documents them (version 0, Go 1.7 on). */
struct cgo_tb_arg {
  uintptr_t context, sig_context, *buf, max;
};
struct cgo_sym_arg {
  uintptr_t pc;
  const char *file;
  uintptr_t lineno;
  const char *func;
  uintptr_t entry, more, data;
};

/* The binary's symbol table, mapped once at start-up; the addresses of
 * its C and Go code. */
static const Elf64_Sym *st_syms;
static size_t st_nsyms;
static const char *st_str;
static size_t st_strsz;
static uintptr_t st_bias;                 /* run-time address - file's */
static uintptr_t st_text[8][2], st_ntext; /* executable segments */
static uintptr_t st_go[2];                /* [runtime.text, runtime.etext) */

extern void cgofuzz_cgo_stack_init(void);
extern void cgofuzz_cgo_traceback(struct cgo_tb_arg *a);
extern void cgofuzz_cgo_symbolize(struct cgo_sym_arg *a);

static int same(const char *a, const char *b) {
  while (*a && *a == *b)
    a++, b++;
  return *a == *b;
}

/* A word of this process's memory, or 0 when it cannot be read. */
static int peek(uintptr_t addr, uintptr_t *out) {
  struct iovec local = {out, sizeof *out};
  struct iovec remote = {(void *)addr, sizeof *out};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) ==
         (ssize_t)sizeof *out;
}

static int in_binary(uintptr_t pc) {
  for (size_t i = 0; i < st_ntext; i++)
    if (pc >= st_text[i][0] && pc < st_text[i][1])
      return 1;
  return 0;
}

/* The binary's C code: its text outside Go's. */
static int in_c(uintptr_t pc) {
  return in_binary(pc) && !(pc >= st_go[0] && pc < st_go[1]);
}

/* Whether the bytes before ret are a call (E8 rel32, or FF /2 through a
 * register or memory operand): ret is then a return address. */
static int after_call(uintptr_t ret) {
  uintptr_t w;
  if (!peek(ret - 8, &w))
    return 0;
  const uint8_t *b = (const uint8_t *)&w; /* b[7] is ret - 1 */
  if (b[3] == 0xe8)
    return 1;
  for (int len = 2; len <= 7; len++) {
    uint8_t op = b[8 - len], modrm = b[9 - len];
    if (op == 0xff && ((modrm >> 3) & 7) == 2)
      return 1;
  }
  return 0;
}

/* Whether w is a return address into the binary's C code. */
static int return_into_c(uintptr_t w) { return in_c(w) && after_call(w); }

void cgofuzz_cgo_traceback(struct cgo_tb_arg *a) {
  if (a->max == 0)
    return;
  a->buf[0] = 0;
  if (!a->sig_context)
    return; /* called for a C-to-Go call: no C frames to give */
  const ucontext_t *uc = (const ucontext_t *)a->sig_context;
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
  uintptr_t fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
  size_t n = 0;
  a->buf[n++] = pc;
  uintptr_t floor = sp;
  if (!in_binary(pc)) {
    /* A library function (libc's memcpy, or abort under assert): its
     * caller is the first return address into the binary's C code on the
     * stack, and that caller's frame the first saved frame pointer above
     * it (a word pointing further up the stack, below a return address
     * into C). rbp itself may be a library's scratch register by now. */
    uintptr_t at = sp, w = 0, up;
    while (at < sp + 4096 && peek(at, &w) && !return_into_c(w))
      at += 8;
    if (at < sp + 4096 && return_into_c(w)) {
      if (n < a->max)
        a->buf[n++] = w - 1;
      floor = at;
      for (uintptr_t s = at + 8; s < at + 4096; s += 8)
        if (peek(s, &up) && up > s && up - s < (1u << 20) && peek(s + 8, &w) &&
            return_into_c(w)) {
          fp = s;
          break;
        }
    }
  }
  while (n < a->max && fp > floor && !(fp & 7)) {
    uintptr_t next, ret;
    if (!peek(fp, &next) || !peek(fp + 8, &ret) || !in_c(ret) ||
        (next && next == cgofuzz_cgo_loop_fp))
      break;
    a->buf[n++] = ret - 1;
    floor = fp;
    fp = next;
  }
  if (n < a->max)
    a->buf[n] = 0;
}

/* Names of library code: "name (library)", or "library+0xoffset" where
 * the library exports no name for it (glibc's memcpy variants). One
 * buffer a frame of a report: Go prints each name before it asks for the
 * next. */
static char sym_buf[32][160];
static unsigned sym_next;

static size_t put(char *out, size_t n, size_t cap, const char *s) {
  while (*s && n < cap)
    out[n++] = *s++;
  return n;
}

static const char *library_frame(const Dl_info *di, uintptr_t pc) {
  char *out = sym_buf[sym_next++ % 32];
  size_t n = 0, cap = sizeof sym_buf[0] - 1;
  const char *base = di->dli_fname ? di->dli_fname : "?";
  for (const char *p = base; *p; p++)
    if (*p == '/')
      base = p + 1;
  if (di->dli_sname) {
    n = put(out, n, cap, di->dli_sname);
    n = put(out, n, cap, " (");
    n = put(out, n, cap - 1, base);
    n = put(out, n, cap, ")");
  } else {
    char hex[20] = "+0x";
    uintptr_t off = pc - (uintptr_t)di->dli_fbase;
    int k = 0;
    for (int sh = 60; sh >= 0; sh -= 4)
      if ((off >> sh) || k || !sh)
        hex[3 + k++] = "0123456789abcdef"[(off >> sh) & 15];
    hex[3 + k] = 0;
    n = put(out, n, cap, base);
    n = put(out, n, cap, hex);
  }
  out[n] = 0;
  return out;
}

void cgofuzz_cgo_symbolize(struct cgo_sym_arg *a) {
  a->file = NULL;
  a->lineno = 0;
  a->func = NULL;
  a->entry = 0;
  a->more = 0;
  if (!a->pc)
    return;
  if (in_binary(a->pc)) {
    uintptr_t at = a->pc - st_bias;
    for (size_t i = 0; i < st_nsyms; i++) {
      const Elf64_Sym *s = &st_syms[i];
      if (ELF64_ST_TYPE(s->st_info) == STT_FUNC && s->st_name < st_strsz &&
          at >= s->st_value && at < s->st_value + s->st_size) {
        a->func = st_str + s->st_name;
        a->entry = s->st_value + st_bias;
        return;
      }
    }
    return;
  }
  Dl_info di;
  if (dladdr((void *)a->pc, &di) && (di.dli_sname || di.dli_fname)) {
    a->func = library_frame(&di, a->pc);
    a->entry = (uintptr_t)di.dli_saddr;
  }
}

/* The mapped file's symbol table and executable segments; 0 on success. */
static int map_symbols(const uint8_t *f, size_t size) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
  if (size < sizeof *eh || eh->e_ident[0] != 0x7f || eh->e_ident[1] != 'E' ||
      eh->e_ident[2] != 'L' || eh->e_ident[3] != 'F' ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_shentsize != sizeof(Elf64_Shdr) ||
      eh->e_phentsize != sizeof(Elf64_Phdr) ||
      eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size ||
      eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > size)
    return -1;
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + eh->e_shoff);
  for (size_t i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
      continue;
    const Elf64_Shdr *str = &sh[sh[i].sh_link];
    if (sh[i].sh_offset + sh[i].sh_size > size ||
        str->sh_offset + str->sh_size > size)
      return -1;
    st_syms = (const Elf64_Sym *)(f + sh[i].sh_offset);
    st_nsyms = sh[i].sh_size / sizeof(Elf64_Sym);
    st_str = (const char *)(f + str->sh_offset);
    st_strsz = str->sh_size;
  }
  if (!st_syms)
    return -1;
  const Elf64_Phdr *ph = (const Elf64_Phdr *)(f + eh->e_phoff);
  for (size_t i = 0; i < eh->e_phnum && st_ntext < 8; i++)
    if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X)) {
      st_text[st_ntext][0] = ph[i].p_vaddr;
      st_text[st_ntext++][1] = ph[i].p_vaddr + ph[i].p_memsz;
    }
  return 0;
}

/* The file address of each name in want (0 when absent). */
static void find(const char *const *want, uintptr_t *addr, size_t n) {
  for (size_t i = 0; i < st_nsyms; i++) {
    const Elf64_Sym *s = &st_syms[i];
    if (s->st_name >= st_strsz || s->st_shndx == SHN_UNDEF)
      continue;
    for (size_t k = 0; k < n; k++)
      if (!addr[k] && same(st_str + s->st_name, want[k]))
        addr[k] = s->st_value;
  }
}

__attribute__((constructor)) void cgofuzz_cgo_stack_init(void) {
  const char *off = getenv("CGOFUZZ_CGO_TRACEBACK");
  if (off && same(off, "0"))
    return;
  int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  struct stat sb;
  void *f = MAP_FAILED;
  if (fstat(fd, &sb) == 0 && sb.st_size > 0)
    f = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (f == MAP_FAILED)
    return;
  /* C_TB and C_SYM: runtime/cgo's own copies of the two (static in
   * gcc_libinit.c), through which newer releases call them. */
  enum { TB, SYM, SET, TEXT, ETEXT, SELF, C_TB, C_SYM, N };
  static const char *const want[N] = {
      "runtime.cgoTraceback",    "runtime.cgoSymbolizer",
      "runtime.SetCgoTraceback", "runtime.text",
      "runtime.etext",           "cgofuzz_cgo_stack_init",
      "cgo_traceback_function",  "cgo_symbolizer_function"};
  uintptr_t addr[N] = {0};
  if (map_symbols(f, (size_t)sb.st_size) == 0)
    find(want, addr, N);
  if (!addr[TB] || !addr[SYM] || addr[SET] || !addr[TEXT] || !addr[ETEXT] ||
      !addr[SELF]) {
    munmap(f, (size_t)sb.st_size);
    st_syms = NULL;
    st_nsyms = 0;
    return;
  }
  st_bias = (uintptr_t)&cgofuzz_cgo_stack_init - addr[SELF];
  for (size_t i = 0; i < st_ntext; i++)
    st_text[i][0] += st_bias, st_text[i][1] += st_bias;
  st_go[0] = addr[TEXT] + st_bias;
  st_go[1] = addr[ETEXT] + st_bias;
  void **tb = (void **)(addr[TB] + st_bias);
  void **sym = (void **)(addr[SYM] + st_bias);
  if (*tb || *sym)
    return;
  *tb = (void *)cgofuzz_cgo_traceback;
  *sym = (void *)cgofuzz_cgo_symbolize;
  if (addr[C_TB])
    *(void **)(addr[C_TB] + st_bias) = (void *)cgofuzz_cgo_traceback;
  if (addr[C_SYM])
    *(void **)(addr[C_SYM] + st_bias) = (void *)cgofuzz_cgo_symbolize;
}
#else
extern void cgofuzz_cgo_stack_init(void);
void cgofuzz_cgo_stack_init(void) {}
#endif
