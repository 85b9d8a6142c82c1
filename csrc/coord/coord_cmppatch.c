/*
 * coord_cmppatch.c: a copy of a Go test binary whose comparison hooks
 * record their operands (run-time comparison feedback, docs/comparisons.md).
 *
 * A `go test -c -fuzz` binary is compiled with -d=libfuzzer: before every
 * integer comparison it calls runtime.libfuzzerTraceCmp1/2/4/8 (both
 * operands variable) or libfuzzerTraceConstCmp1/2/4/8 (the constant first),
 * before every string comparison runtime.libfuzzerHookStrCmp (go1.19 on)
 * and before strings.EqualFold runtime.libfuzzerHookEqualFold. Without the
 * libfuzzer build tag those are empty Go functions (internal/fuzz/trace.go):
 * one RET at a 32-byte aligned address, followed by INT3 padding. Go's
 * register ABI passes (arg0, arg1, fakePC) in AX, BX, CX, and for the
 * string hooks (ptr0, len0, ptr1, len1, fakePC) in AX, BX, CX, DI, SI; it
 * has no callee-saved registers besides SP, R14 (g) and R15, and the hooks
 * are leaves, so a replacement body may clobber anything else and needs no
 * stack of its own.
 *
 * The copy (the user's binary is never written) differs in three places:
 *  1. a new PT_LOAD segment, taking the PT_NOTE program header's place
 *     (the kernel ignores notes; the loader needs the PT_LOAD entries in
 *     ascending order, so the table is re-sorted), read-write-execute,
 *     holding the stubs below, followed by the trace area (zero-fill);
 *  2. the entry point: an entry stub maps the trace area of the file on
 *     fd 5 (the worker's shared memory, see coord_worker.h) at offset
 *     trace_off MAP_SHARED|MAP_FIXED over the zero-fill, then jumps to the
 *     original entry. Started any other way, the mapping fails and the
 *     zero-fill stays: the hooks then see "off" and return;
 *  3. each hook's RET becomes a JMP rel32 to its stub, which returns to the
 *     hook's caller.
 * A stub appends one record (CMP_REC_SIZE bytes, layout in
 * coord_internal.h) when the trace area's first byte is non-zero, taking
 * its index with LOCK XADD so concurrent goroutines never share a record;
 * indexes past the capacity are dropped. The hooks are found by the
 * symbol table (coord_obj.c), or when stripped by Go's own function table. Only
 * linux/amd64 non-PIE executables are patched; anything else gets an error
 * saying why, and the caller falls back to the static dictionary.
 */
#include "elf64.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "coord_internal.h"
#include "coord_obj_internal.h"
#include "gohooks.h"

#define PAGE 0x1000ull
#define MAX_IMAGE ((size_t)1 << 31)
#define MAX_ADDR 0x7ff00000ull /* stubs address the trace with imm32 */

/* The hooks, in the order of their stubs; the first CGOFUZZ_GOHOOK_N are
 * also the slots of the C side's table (core/gohooks.h). */
static const struct {
  const char *name;
  uint32_t kind;
  bool required;
} hooks[] = {
    {"runtime.libfuzzerTraceCmp1", 1, true},
    {"runtime.libfuzzerTraceCmp2", 2, true},
    {"runtime.libfuzzerTraceCmp4", 4, true},
    {"runtime.libfuzzerTraceCmp8", 8, true},
    {"runtime.libfuzzerTraceConstCmp1", CMP_K_CONST | 1, true},
    {"runtime.libfuzzerTraceConstCmp2", CMP_K_CONST | 2, true},
    {"runtime.libfuzzerTraceConstCmp4", CMP_K_CONST | 4, true},
    {"runtime.libfuzzerTraceConstCmp8", CMP_K_CONST | 8, true},
    {"runtime.libfuzzerHookStrCmp", CMP_K_STR, false},
    {"runtime.libfuzzerHookEqualFold", CMP_K_FOLD, false},
};
#define N_HOOKS (sizeof hooks / sizeof hooks[0])

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static int emit(cgofuzz_buf *b, const uint8_t *code, size_t n) {
  return cgofuzz_buf_append(b, code, n);
}

/* mov r12,rdx; mmap(trace, size, RW, MAP_SHARED|MAP_FIXED, 5, off);
 * mov rdx,r12; jmp entry. rdx (the dynamic loader's fini function) is the
 * only register the process entry receives besides rsp. */
static int emit_entry(cgofuzz_buf *b, uint64_t at, uint32_t trace,
                      uint32_t size, uint32_t off, uint64_t entry) {
  uint8_t c[] = {0x49, 0x89, 0xd4,                   /* mov r12, rdx */
                 0xb8, 0x09, 0x00, 0x00, 0x00,       /* mov eax, 9 */
                 0xbf, 0,    0,    0,    0,          /* mov edi, trace */
                 0xbe, 0,    0,    0,    0,          /* mov esi, size */
                 0xba, 0x03, 0x00, 0x00, 0x00,       /* mov edx, 3 */
                 0x41, 0xba, 0x11, 0x00, 0x00, 0x00, /* mov r10d, 0x11 */
                 0x41, 0xb8, 0x05, 0x00, 0x00, 0x00, /* mov r8d, 5 */
                 0x41, 0xb9, 0,    0,    0,    0,    /* mov r9d, off */
                 0x0f, 0x05,                         /* syscall */
                 0x4c, 0x89, 0xe2,                   /* mov rdx, r12 */
                 0xe9, 0,    0,    0,    0};         /* jmp entry */
  put32(c + 9, trace);
  put32(c + 14, size);
  put32(c + 37, off);
  put32(c + 47, (uint32_t)(entry - (at + sizeof c)));
  return emit(b, c, sizeof c);
}

/* The common head of a stub: r9 = the record, or return when tracing is
 * off or the area is full. */
static const uint8_t stub_head[] = {
    0x41, 0xb8, 0,    0,    0,    0,       /* mov r8d, trace */
    0x41, 0x80, 0x38, 0x00,                /* cmp byte [r8], 0 */
    0x74, 0,                               /* je ret */
    0x41, 0xb9, 0x01, 0x00, 0x00, 0x00,    /* mov r9d, 1 */
    0xf0, 0x4d, 0x0f, 0xc1, 0x48, 0x08,    /* lock xadd [r8+8], r9 */
    0x4d, 0x3b, 0x48, 0x10,                /* cmp r9, [r8+16] */
    0x73, 0,                               /* jae ret */
    0x49, 0xc1, 0xe1, 0x07,                /* shl r9, 7 */
    0x4f, 0x8d, 0x4c, 0x08, 0x40,          /* lea r9, [r8+r9+64] */
    0x41, 0xc7, 0x01, 0,    0,    0,    0, /* mov dword [r9], kind */
};

static int emit_stub(cgofuzz_buf *b, uint32_t trace, uint32_t kind) {
  static const uint8_t ints[] = {
      0x41, 0x89, 0x49, 0x04, /* mov [r9+4], ecx  (fakePC) */
      0x49, 0x89, 0x41, 0x10, /* mov [r9+16], rax (arg0) */
      0x49, 0x89, 0x59, 0x48, /* mov [r9+72], rbx (arg1) */
      0xc3};
  static const uint8_t strs[] = {
      0x41, 0x89, 0x71, 0x04,       /* mov [r9+4], esi  (fakePC) */
      0x41, 0x89, 0x59, 0x08,       /* mov [r9+8], ebx  (len0) */
      0x41, 0x89, 0x79, 0x0c,       /* mov [r9+12], edi (len1) */
      0x49, 0x89, 0xfa,             /* mov r10, rdi */
      0x49, 0x89, 0xcb,             /* mov r11, rcx */
      0x49, 0x8d, 0x79, 0x10,       /* lea rdi, [r9+16] */
      0x48, 0x89, 0xc6,             /* mov rsi, rax */
      0x48, 0x89, 0xd9,             /* mov rcx, rbx */
      0x48, 0x83, 0xf9, 0x38,       /* cmp rcx, 56 */
      0x76, 0x05,                   /* jbe +5 */
      0xb9, 0x38, 0x00, 0x00, 0x00, /* mov ecx, 56 */
      0xf3, 0xa4,                   /* rep movsb */
      0x49, 0x8d, 0x79, 0x48,       /* lea rdi, [r9+72] */
      0x4c, 0x89, 0xde,             /* mov rsi, r11 */
      0x4c, 0x89, 0xd1,             /* mov rcx, r10 */
      0x48, 0x83, 0xf9, 0x38,       /* cmp rcx, 56 */
      0x76, 0x05,                   /* jbe +5 */
      0xb9, 0x38, 0x00, 0x00, 0x00, /* mov ecx, 56 */
      0xf3, 0xa4,                   /* rep movsb */
      0xc3};
  const uint8_t *tail = kind & (CMP_K_STR | CMP_K_FOLD) ? strs : ints;
  size_t tail_len = kind & (CMP_K_STR | CMP_K_FOLD) ? sizeof strs : sizeof ints;
  uint8_t h[sizeof stub_head];
  memcpy(h, stub_head, sizeof h);
  put32(h + 2, trace);
  /* Both jumps land on the final RET. */
  h[11] = (uint8_t)(sizeof h - 12 + tail_len - 1);
  h[29] = (uint8_t)(sizeof h - 30 + tail_len - 1);
  put32(h + sizeof h - 4, kind);
  if (emit(b, h, sizeof h) != 0)
    return -1;
  return emit(b, tail, tail_len);
}

_Static_assert(CGOFUZZ_GOHOOK_STRCMP == 8 && CGOFUZZ_GOHOOK_N == 9,
               "hooks[] and core/gohooks.h list the hooks in one order");

typedef struct image {
  uint8_t *p;
  size_t n;
} image;

static uint64_t rd64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static uint32_t rd32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* Where Go's code starts (runtime.text), for a table whose offsets count
 * from there. Internally linked, that is the .text section's start; an
 * externally linked (cgo) binary has the C start-up code first. The
 * runtime's first module data (runtime.firstmoduledata: in .go.module
 * from go1.26, .noptrdata before)
 * begins with the table's address and, from go1.18, holds minpc, which
 * is runtime.text, 20 words in (after pcHeader, six slices and
 * findfunctab). */
static uint64_t go_text(const cgofuzz_obj *o, uint64_t pclntab,
                        const cgofuzz_obj_sect *tx) {
  static const char *const homes[] = {".go.module", ".noptrdata"};
  for (size_t k = 0; k < sizeof homes / sizeof homes[0]; k++) {
    const cgofuzz_obj_sect *nd = cgofuzz_obj_section(o, homes[k]);
    const uint8_t *d = nd ? cgofuzz_obj_bytes(o, nd) : NULL;
    for (uint64_t at = 0; d && at + 8 * 23 <= nd->size; at += 8) {
      if (rd64(d + at) != pclntab)
        continue;
      uint64_t minpc = rd64(d + at + 8 * 20), maxpc = rd64(d + at + 8 * 21);
      if (minpc >= tx->addr && minpc < maxpc && maxpc <= tx->addr + tx->size)
        return minpc;
    }
  }
  return tx->addr;
}

/* The entry of function name from Go's own function table (.gopclntab),
 * which a stripped binary keeps for tracebacks (go test's binaries under
 * -exec are linked with -s -w). Its header, from go1.18 (magic 0xfffffff0;
 * 0xfffffff1 from go1.20): magic, 4 bytes, then pointer-sized nfunc,
 * nfiles, textStart (0 from go1.26: runtime.text, the .text section),
 * funcnameOffset, cuOffset, filetabOffset, pctabOffset, pclnOffset. At
 * pclnOffset, nfunc (entryoff, funcoff) pairs of uint32; a function's
 * record at pclnOffset+funcoff begins (entryOff uint32, nameOff int32),
 * its name a C string at funcnameOffset+nameOff. 0 when absent. */
static uint64_t find_pcln(const cgofuzz_obj *o, const char *name) {
  const cgofuzz_obj_sect *pt = cgofuzz_obj_section(o, ".gopclntab");
  const cgofuzz_obj_sect *tx = cgofuzz_obj_section(o, ".text");
  const uint8_t *h = cgofuzz_obj_bytes(o, pt);
  if (!h || !tx || pt->size < 72)
    return 0;
  size_t n = (size_t)pt->size, len = strlen(name);
  uint32_t magic = rd32(h);
  if ((magic != 0xfffffff0u && magic != 0xfffffff1u) || h[7] != 8)
    return 0;
  uint64_t nfunc = rd64(h + 8), text = rd64(h + 24);
  uint64_t names = rd64(h + 32), pcln = rd64(h + 64);
  if (!text)
    text = go_text(o, pt->addr, tx);
  if (pcln > n || nfunc > (n - pcln) / 8 || names > n)
    return 0;
  for (uint64_t i = 0; i < nfunc; i++) {
    const uint8_t *ft = h + pcln + 8 * i;
    uint64_t fo = pcln + rd32(ft + 4);
    if (fo + 8 > n)
      continue;
    int32_t no = (int32_t)rd32(h + fo + 4);
    uint64_t at = names + (uint64_t)(int64_t)no;
    if (no < 0 || at + len + 1 > n || memcmp(h + at, name, len + 1) != 0)
      continue;
    return text + rd32(ft);
  }
  return 0;
}

/* The file offset of address a inside an executable PT_LOAD, or 0. */
static uint64_t text_offset(const Elf64_Phdr *ph, size_t n, uint64_t a) {
  for (size_t i = 0; i < n; i++)
    if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X) &&
        a >= ph[i].p_vaddr && a + 8 <= ph[i].p_vaddr + ph[i].p_filesz)
      return a - ph[i].p_vaddr + ph[i].p_offset;
  return 0;
}

/* The image to patch: a copy of the file obj maps (read once, for its
 * symbols and for the bytes the copy changes). */
static int copy_image(const cgofuzz_obj *obj, const char *path, image *im,
                      cgofuzz_err *err) {
  if (obj->len < sizeof(Elf64_Ehdr) || obj->len > MAX_IMAGE)
    return cgofuzz_errf(err, 0, "%s: not an executable of a usable size", path);
  if (!(im->p = malloc(obj->len)))
    return cgofuzz_errf(err, 0, "out of memory");
  memcpy(im->p, obj->map, obj->len);
  im->n = obj->len;
  return 0;
}

/* The C side's table (core/gohooks.h), when `cgofuzz cgo-cc` linked one:
 * found by its magic, 8-byte aligned, in the file bytes of a writable
 * PT_LOAD; its slots get the Go hooks' addresses (whose bodies now jump to
 * the stubs). Whether there was one. */
static bool fill_c_table(image *im, const Elf64_Phdr *ph, size_t nph,
                         const uint64_t *hook_at) {
  static const char magic[CGOFUZZ_GOHOOKS_MAGIC_SIZE] = CGOFUZZ_GOHOOKS_MAGIC;
  const size_t need = sizeof magic + 8 * CGOFUZZ_GOHOOK_N;
  for (size_t i = 0; i < nph; i++) {
    if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_W) ||
        ph[i].p_offset > im->n || ph[i].p_filesz > im->n - ph[i].p_offset)
      continue;
    uint64_t lo = ph[i].p_offset, hi = lo + ph[i].p_filesz;
    /* File offsets and addresses agree modulo the page size. */
    uint64_t first = lo + ((8 - (ph[i].p_vaddr & 7)) & 7);
    for (uint64_t o = first; o + need <= hi; o += 8) {
      if (memcmp(im->p + o, magic, sizeof magic) != 0)
        continue;
      for (int k = 0; k < CGOFUZZ_GOHOOK_N; k++)
        memcpy(im->p + o + sizeof magic + 8 * (size_t)k, &hook_at[k], 8);
      return true;
    }
  }
  return false;
}

int cgofuzz_cmp_patch(const char *binary, const char *out, uint64_t trace_off,
                      size_t trace_size, cgofuzz_cmp_patched *info,
                      cgofuzz_err *err) {
  image im = {0};
  cgofuzz_obj obj = {0}; /* the binary: its symbols, and im's bytes */
  cgofuzz_buf code = {0};
  FILE *f = NULL;
  int rc = -1;
  memset(info, 0, sizeof *info);
  if (cgofuzz_obj_open(&obj, binary, true, err) != 0 ||
      copy_image(&obj, binary, &im, err) != 0)
    goto done;
  Elf64_Ehdr *eh = (Elf64_Ehdr *)im.p;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_ident[EI_DATA] != ELFDATA2LSB) {
    cgofuzz_errf(err, 0, "not a 64-bit little-endian ELF file");
    goto done;
  }
  if (eh->e_machine != EM_X86_64) {
    cgofuzz_errf(err, 0, "not an amd64 binary (ELF machine %u)",
                 (unsigned)eh->e_machine);
    goto done;
  }
  if (eh->e_type != ET_EXEC) {
    cgofuzz_errf(err, 0, "a position-independent executable");
    goto done;
  }
  if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
      eh->e_shentsize != sizeof(Elf64_Shdr) ||
      eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > im.n ||
      eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > im.n) {
    cgofuzz_errf(err, 0, "malformed ELF headers");
    goto done;
  }
  Elf64_Phdr *ph = (Elf64_Phdr *)(im.p + eh->e_phoff);
  size_t nph = eh->e_phnum, note = nph, last_load = nph;
  uint64_t end = 0;
  for (size_t i = 0; i < nph; i++) {
    if (ph[i].p_type == PT_NOTE && note == nph)
      note = i;
    if (ph[i].p_type == PT_LOAD) {
      last_load = i;
      if (ph[i].p_vaddr + ph[i].p_memsz > end)
        end = ph[i].p_vaddr + ph[i].p_memsz;
    }
  }
  if (note == nph || last_load == nph) {
    cgofuzz_errf(err, 0, "no PT_NOTE program header to reuse");
    goto done;
  }
  /* The segment: a page of stubs, then the trace area, above everything
   * the binary maps (and a gap for the heap's brk start). */
  uint64_t seg = ((end + 0xfffffull) & ~0xfffffull) + 0x100000ull;
  uint64_t trace = seg + PAGE;
  uint64_t tsize = (trace_size + PAGE - 1) & ~(PAGE - 1);
  if (trace + tsize > MAX_ADDR || trace_off > 0xffffffffull ||
      (trace_off & (PAGE - 1))) {
    cgofuzz_errf(err, 0, "its address space leaves no room below 2 GiB");
    goto done;
  }
  uint64_t hook_at[N_HOOKS] = {0}, stub_at[N_HOOKS] = {0};
  for (size_t i = 0; i < N_HOOKS; i++) {
    uint64_t a = cgofuzz_obj_sym_value(&obj, hooks[i].name, CGOFUZZ_SYM_FUNC);
    if (!a)
      a = find_pcln(&obj, hooks[i].name);
    uint64_t off = a ? text_offset(ph, nph, a) : 0;
    if (!off) {
      if (hooks[i].required) {
        cgofuzz_errf(err, 0, "no %s (not built with -fuzz?)", hooks[i].name);
        goto done;
      }
      continue;
    }
    /* RET then at least four INT3: an empty body and its padding. */
    const uint8_t *p = im.p + off;
    if (p[0] != 0xc3 || p[1] != 0xcc || p[2] != 0xcc || p[3] != 0xcc ||
        p[4] != 0xcc) {
      cgofuzz_errf(err, 0, "%s is not an empty function", hooks[i].name);
      goto done;
    }
    hook_at[i] = a;
  }
  uint64_t foff = ((uint64_t)im.n + PAGE - 1) & ~(PAGE - 1);
  if (emit_entry(&code, seg, (uint32_t)trace, (uint32_t)tsize,
                 (uint32_t)trace_off, eh->e_entry) != 0)
    goto oom;
  for (size_t i = 0; i < N_HOOKS; i++) {
    if (!hook_at[i])
      continue;
    stub_at[i] = seg + code.len;
    if (emit_stub(&code, (uint32_t)trace, hooks[i].kind) != 0)
      goto oom;
  }
  if (code.len > PAGE) {
    cgofuzz_errf(err, 0, "stubs too large");
    goto done;
  }
  for (size_t i = 0; i < N_HOOKS; i++) {
    if (!hook_at[i])
      continue;
    uint8_t *p = im.p + text_offset(ph, nph, hook_at[i]);
    p[0] = 0xe9;
    put32(p + 1, (uint32_t)(stub_at[i] - (hook_at[i] + 5)));
    info->hooks++;
    info->strings |= (hooks[i].kind & (CMP_K_STR | CMP_K_FOLD)) != 0;
  }
  info->c_hooks = fill_c_table(&im, ph, nph, hook_at);
  Elf64_Phdr load = {.p_type = PT_LOAD,
                     .p_flags = PF_R | PF_W | PF_X,
                     .p_offset = foff,
                     .p_vaddr = seg,
                     .p_paddr = seg,
                     .p_filesz = code.len,
                     .p_memsz = PAGE + tsize,
                     .p_align = PAGE};
  /* Drop the note, put the new segment after the last PT_LOAD. */
  memmove(&ph[note], &ph[note + 1], (nph - note - 1) * sizeof *ph);
  if (last_load > note)
    last_load--;
  memmove(&ph[last_load + 2], &ph[last_load + 1],
          (nph - 1 - (last_load + 1)) * sizeof *ph);
  ph[last_load + 1] = load;
  eh->e_entry = seg;
  info->trace_addr = trace;
  info->trace_size = tsize;

  f = fopen(out, "wb");
  static const uint8_t zero[PAGE];
  if (!f || fwrite(im.p, 1, im.n, f) != im.n ||
      fwrite(zero, 1, foff - im.n, f) != foff - im.n ||
      fwrite(code.data, 1, code.len, f) != code.len || fflush(f) != 0 ||
      fchmod(fileno(f), 0700) != 0) {
    cgofuzz_errf(err, 0, "cannot write %s: %s", out, strerror(errno));
    goto done;
  }
  rc = 0;
  goto done;
oom:
  cgofuzz_errf(err, 0, "out of memory");
done:
  if (f && fclose(f) != 0 && rc == 0)
    rc = cgofuzz_errf(err, 0, "cannot write %s: %s", out, strerror(errno));
  free(im.p);
  cgofuzz_obj_close(&obj);
  cgofuzz_buf_free(&code);
  return rc;
}
