/*
 * gobin_obj.c: reading a Go or C binary's sections, segments and symbols,
 * ELF64 or Mach-O 64, without running it (gobin_obj.h).
 *
 * The file is mapped read-only and every header is copied out of the
 * mapping with its bounds checked first: a test binary may be truncated
 * (a build killed half-way) or not a binary at all, and the coordinator
 * must say so, not crash. Only little-endian 64-bit files are read, which
 * is every platform Go fuzzes on (amd64 and arm64; Go's -fuzz
 * instrumentation exists nowhere else).
 *
 * Mach-O, as Go's linker (cmd/link) and Apple's write it: a 32-byte
 * header (magic 0xfeedfacf, CPU type), then load commands. LC_SEGMENT_64
 * (0x19) carries a segment and its sections (80 bytes each: a 16-byte
 * name, the segment's name, address, size, file offset, flags); a
 * zero-fill section (type 1, or 0xc for thread-local) has no bytes in the
 * file. LC_SYMTAB (0x2) points at nlist_64 entries (16 bytes: string
 * index, type, section number counted from 1, description, value) and
 * their string table. Symbols have no size: a symbol is taken to end where
 * the next one of its section begins. C symbols start with '_', which is
 * dropped, so that a name reads as on ELF ("_runtime.memequal" is Go's
 * "runtime.memequal"). Go names a Mach-O section after its ELF twin:
 * "__" then the ELF name without its first '.', with the other '.' as
 * '_', cut at 16 bytes (".go.fuzzcntrs" is "__go_fuzzcntrs").
 */
#include "elf64.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gobin_obj.h"

#define MH_MAGIC_64 0xfeedfacfu
#define MH_CIGAM_64 0xcffaedfeu /* big-endian, as read here */
#define FAT_MAGIC 0xcafebabeu
#define FAT_CIGAM 0xbebafecau
#define CPU_TYPE_X86_64 0x01000007u
#define CPU_TYPE_ARM64 0x0100000cu
#define LC_SEGMENT_64 0x19u
#define LC_SYMTAB 0x2u
#define SECTION_TYPE 0xffu
#define S_ZEROFILL 0x1u
#define S_GB_ZEROFILL 0xcu
#define S_THREAD_LOCAL_ZEROFILL 0x12u
#define S_ATTR_PURE_INSTRUCTIONS 0x80000000u
#define S_ATTR_SOME_INSTRUCTIONS 0x400u
#define VM_PROT_WRITE 0x2u
#define N_STAB 0xe0u
#define N_TYPE 0x0eu
#define N_SECT 0x0eu
#define MACHO_NAME 16

#define MAX_SECTIONS 65535
#define MAX_SYMBOLS (16u << 20)

typedef struct {
  uint32_t magic, cputype, cpusubtype, filetype, ncmds, sizeofcmds, flags,
      reserved;
} macho_header;

typedef struct {
  uint32_t cmd, cmdsize;
  char segname[MACHO_NAME];
  uint64_t vmaddr, vmsize, fileoff, filesize;
  uint32_t maxprot, initprot, nsects, flags;
} macho_segment;

typedef struct {
  char sectname[MACHO_NAME], segname[MACHO_NAME];
  uint64_t addr, size;
  uint32_t offset, align, reloff, nreloc, flags, reserved1, reserved2,
      reserved3;
} macho_section;

typedef struct {
  uint32_t cmd, cmdsize, symoff, nsyms, stroff, strsize;
} macho_symtab;

typedef struct {
  uint32_t n_strx;
  uint8_t n_type, n_sect;
  uint16_t n_desc;
  uint64_t n_value;
} macho_nlist;

/* Whether [off, off + n) lies in the file. */
static bool in_file(const cgofuzz_gobin_obj *o, uint64_t off, uint64_t n) {
  return off <= o->len && n <= o->len - off;
}

/* Copies n bytes at file offset off into out; false when outside. */
static bool copy_at(const cgofuzz_gobin_obj *o, uint64_t off, void *out,
                    size_t n) {
  if (!in_file(o, off, n))
    return false;
  memcpy(out, o->map + off, n);
  return true;
}

/* The NUL-terminated name at strtab[idx] of a table of size n at file
 * offset off, or NULL. */
static const char *name_at(const cgofuzz_gobin_obj *o, uint64_t off, uint64_t n,
                           uint64_t idx) {
  if (idx >= n || !in_file(o, off, n))
    return NULL;
  const char *s = (const char *)o->map + off + idx;
  return memchr(s, 0, (size_t)(n - idx)) ? s : NULL;
}

static void *grow(void *v, size_t n, size_t size) {
  if ((n & (n - 1)) != 0)
    return v; /* room is doubled at powers of two */
  size_t cap = n ? 2 * n : 16;
  return realloc(v, cap * size);
}

static int add_sect(cgofuzz_gobin_obj *o, const cgofuzz_gobin_obj_sect *s) {
  cgofuzz_gobin_obj_sect *v = grow(o->sect, o->nsect, sizeof *v);
  if (!v)
    return -1;
  o->sect = v;
  o->sect[o->nsect++] = *s;
  return 0;
}

static int add_seg(cgofuzz_gobin_obj *o, const cgofuzz_gobin_obj_seg *s) {
  cgofuzz_gobin_obj_seg *v = grow(o->seg, o->nseg, sizeof *v);
  if (!v)
    return -1;
  o->seg = v;
  o->seg[o->nseg++] = *s;
  return 0;
}

/* --- ELF64 */

static int elf_read(cgofuzz_gobin_obj *o, const char *path, bool symbols,
                    cgofuzz_err *err) {
  Elf64_Ehdr eh;
  if (!copy_at(o, 0, &eh, sizeof eh))
    return cgofuzz_errf(err, 0, "%s: truncated ELF header", path);
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
    return cgofuzz_errf(err, 0, "%s: not a little-endian 64-bit ELF file",
                        path);
  o->arch = eh.e_machine == EM_X86_64    ? CGOFUZZ_ARCH_AMD64
            : eh.e_machine == EM_AARCH64 ? CGOFUZZ_ARCH_ARM64
                                         : CGOFUZZ_ARCH_OTHER;
  /* Program headers: the loaded segments. */
  if (eh.e_phentsize == sizeof(Elf64_Phdr))
    for (size_t i = 0; i < eh.e_phnum; i++) {
      Elf64_Phdr ph;
      if (!copy_at(o, eh.e_phoff + i * sizeof ph, &ph, sizeof ph))
        return cgofuzz_errf(err, 0, "%s: truncated ELF program headers", path);
      if (ph.p_type != PT_LOAD || !in_file(o, ph.p_offset, ph.p_filesz))
        continue;
      cgofuzz_gobin_obj_seg s = {ph.p_vaddr, ph.p_offset, ph.p_filesz,
                                 (ph.p_flags & PF_W) != 0};
      if (add_seg(o, &s) != 0)
        return cgofuzz_errf(err, 0, "out of memory");
    }
  /* Section headers, named from the section name table. */
  if (eh.e_shnum == 0 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
      eh.e_shstrndx >= eh.e_shnum)
    return 0; /* none: segments only */
  Elf64_Shdr strs, symtab = {0}, symstr = {0};
  if (!copy_at(o, eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof strs, &strs,
               sizeof strs))
    return cgofuzz_errf(err, 0, "%s: truncated ELF section headers", path);
  for (size_t i = 0; i < eh.e_shnum; i++) {
    Elf64_Shdr sh;
    if (!copy_at(o, eh.e_shoff + i * sizeof sh, &sh, sizeof sh))
      return cgofuzz_errf(err, 0, "%s: truncated ELF section headers", path);
    if (sh.sh_type == SHT_SYMTAB && sh.sh_entsize == sizeof(Elf64_Sym) &&
        sh.sh_link < eh.e_shnum &&
        copy_at(o, eh.e_shoff + (uint64_t)sh.sh_link * sizeof symstr, &symstr,
                sizeof symstr))
      symtab = sh;
    const char *name = name_at(o, strs.sh_offset, strs.sh_size, sh.sh_name);
    cgofuzz_gobin_obj_sect s = {.addr = sh.sh_addr,
                                .size = sh.sh_size,
                                .off = sh.sh_offset,
                                .in_file = sh.sh_type != SHT_NOBITS &&
                                           (sh.sh_flags & SHF_ALLOC) &&
                                           in_file(o, sh.sh_offset, sh.sh_size),
                                .code = (sh.sh_flags & SHF_EXECINSTR) != 0};
    snprintf(s.name, sizeof s.name, "%s", name ? name : "");
    if (add_sect(o, &s) != 0)
      return cgofuzz_errf(err, 0, "out of memory");
  }
  if (!symbols || !symtab.sh_size)
    return 0;
  if (!in_file(o, symtab.sh_offset, symtab.sh_size) ||
      symtab.sh_size / sizeof(Elf64_Sym) > MAX_SYMBOLS)
    return cgofuzz_errf(err, 0, "%s: truncated ELF symbol table", path);
  size_t n = (size_t)(symtab.sh_size / sizeof(Elf64_Sym));
  o->sym = calloc(n ? n : 1, sizeof *o->sym);
  if (!o->sym)
    return cgofuzz_errf(err, 0, "out of memory");
  for (size_t i = 0; i < n; i++) {
    Elf64_Sym es;
    copy_at(o, symtab.sh_offset + i * sizeof es, &es, sizeof es);
    const char *name = name_at(o, symstr.sh_offset, symstr.sh_size, es.st_name);
    int t = ELF64_ST_TYPE(es.st_info);
    o->sym[o->nsym++] =
        (cgofuzz_gobin_obj_sym){name ? name : "", es.st_value, es.st_size,
                                t == STT_FUNC     ? CGOFUZZ_SYM_FUNC
                                : t == STT_OBJECT ? CGOFUZZ_SYM_OBJECT
                                                  : CGOFUZZ_SYM_OTHER};
  }
  return 0;
}

/* --- Mach-O 64 */

/* A symbol's place, to sort by: a Mach-O symbol's size is the distance
 * to the next symbol of its section. */
typedef struct {
  uint64_t value;
  size_t sym;
  uint8_t sect;
} sym_place;

static int by_address(const void *a, const void *b) {
  const sym_place *x = a, *y = b;
  if (x->sect != y->sect)
    return x->sect < y->sect ? -1 : 1;
  return x->value < y->value ? -1 : x->value > y->value;
}

static int macho_symbols(cgofuzz_gobin_obj *o, const macho_symtab *st) {
  if (st->nsyms > MAX_SYMBOLS ||
      !in_file(o, st->symoff, (uint64_t)st->nsyms * sizeof(macho_nlist)))
    return -2;
  size_t n = st->nsyms;
  o->sym = calloc(n ? n : 1, sizeof *o->sym);
  sym_place *pl = calloc(n ? n : 1, sizeof *pl);
  if (!o->sym || !pl) {
    free(pl);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    macho_nlist nl;
    copy_at(o, st->symoff + i * sizeof nl, &nl, sizeof nl);
    if ((nl.n_type & N_STAB) || (nl.n_type & N_TYPE) != N_SECT ||
        nl.n_sect == 0 || nl.n_sect > o->nsect)
      continue;
    const char *name = name_at(o, st->stroff, st->strsize, nl.n_strx);
    if (!name)
      continue;
    if (name[0] == '_')
      name++;
    const cgofuzz_gobin_obj_sect *s = &o->sect[nl.n_sect - 1];
    pl[o->nsym] = (sym_place){nl.n_value, o->nsym, nl.n_sect};
    o->sym[o->nsym++] = (cgofuzz_gobin_obj_sym){
        name, nl.n_value, 0, s->code ? CGOFUZZ_SYM_FUNC : CGOFUZZ_SYM_OBJECT};
  }
  qsort(pl, o->nsym, sizeof *pl, by_address);
  /* From the last: end is the next higher address in the same section
   * (symbols at one address share it), or the section's end. */
  uint64_t end = 0;
  for (size_t k = o->nsym; k-- > 0;) {
    const cgofuzz_gobin_obj_sect *s = &o->sect[pl[k].sect - 1];
    if (k + 1 == o->nsym || pl[k + 1].sect != pl[k].sect)
      end = s->addr + s->size;
    else if (pl[k + 1].value > pl[k].value)
      end = pl[k + 1].value;
    o->sym[pl[k].sym].size = end > pl[k].value ? end - pl[k].value : 0;
  }
  free(pl);
  return 0;
}

static int macho_read(cgofuzz_gobin_obj *o, const char *path, bool symbols,
                      cgofuzz_err *err) {
  macho_header mh;
  if (!copy_at(o, 0, &mh, sizeof mh))
    return cgofuzz_errf(err, 0, "%s: truncated Mach-O header", path);
  o->arch = mh.cputype == CPU_TYPE_X86_64  ? CGOFUZZ_ARCH_AMD64
            : mh.cputype == CPU_TYPE_ARM64 ? CGOFUZZ_ARCH_ARM64
                                           : CGOFUZZ_ARCH_OTHER;
  macho_symtab st = {0};
  uint64_t at = sizeof mh;
  for (uint32_t c = 0; c < mh.ncmds; c++) {
    uint32_t head[2];
    if (!copy_at(o, at, head, sizeof head) || head[1] < sizeof head ||
        !in_file(o, at, head[1]))
      return cgofuzz_errf(err, 0, "%s: truncated Mach-O load command %u of %u",
                          path, c + 1, mh.ncmds);
    if (head[0] == LC_SYMTAB && head[1] >= sizeof st) {
      copy_at(o, at, &st, sizeof st);
    } else if (head[0] == LC_SEGMENT_64 && head[1] >= sizeof(macho_segment)) {
      macho_segment sg;
      copy_at(o, at, &sg, sizeof sg);
      if (sg.nsects > (head[1] - sizeof sg) / sizeof(macho_section) ||
          o->nsect + sg.nsects > MAX_SECTIONS)
        return cgofuzz_errf(err, 0, "%s: bad Mach-O segment %.16s", path,
                            sg.segname);
      if (sg.filesize && in_file(o, sg.fileoff, sg.filesize)) {
        cgofuzz_gobin_obj_seg s = {sg.vmaddr, sg.fileoff, sg.filesize,
                                   (sg.initprot & VM_PROT_WRITE) != 0};
        if (add_seg(o, &s) != 0)
          return cgofuzz_errf(err, 0, "out of memory");
      }
      for (uint32_t i = 0; i < sg.nsects; i++) {
        macho_section ms;
        copy_at(o, at + sizeof sg + i * sizeof ms, &ms, sizeof ms);
        uint32_t type = ms.flags & SECTION_TYPE;
        bool zero = type == S_ZEROFILL || type == S_GB_ZEROFILL ||
                    type == S_THREAD_LOCAL_ZEROFILL;
        cgofuzz_gobin_obj_sect s = {
            .addr = ms.addr,
            .size = ms.size,
            .off = ms.offset,
            .in_file = !zero && in_file(o, ms.offset, ms.size),
            .code = (ms.flags & (S_ATTR_PURE_INSTRUCTIONS |
                                 S_ATTR_SOME_INSTRUCTIONS)) != 0};
        memcpy(s.name, ms.sectname, MACHO_NAME); /* not NUL-terminated */
        s.name[MACHO_NAME] = '\0';
        if (add_sect(o, &s) != 0)
          return cgofuzz_errf(err, 0, "out of memory");
      }
    }
    at += head[1];
  }
  if (!symbols || !st.nsyms)
    return 0;
  int r = macho_symbols(o, &st);
  if (r == -2)
    return cgofuzz_errf(err, 0, "%s: truncated Mach-O symbol table", path);
  return r < 0 ? cgofuzz_errf(err, 0, "out of memory") : 0;
}

int cgofuzz_gobin_obj_open(cgofuzz_gobin_obj *o, const char *path, bool symbols,
                           cgofuzz_err *err) {
  memset(o, 0, sizeof *o);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cgofuzz_errf(err, 0, "%s: cannot open", path);
  struct stat stb;
  if (fstat(fd, &stb) != 0 || !S_ISREG(stb.st_mode) || stb.st_size < 4) {
    close(fd);
    return cgofuzz_errf(err, 0, "%s: not an ELF or Mach-O file", path);
  }
  void *m = mmap(NULL, (size_t)stb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (m == MAP_FAILED)
    return cgofuzz_errf(err, 0, "%s: cannot map it", path);
  o->map = m;
  o->len = (size_t)stb.st_size;
  uint32_t magic;
  memcpy(&magic, o->map, 4);
  int rc;
  if (memcmp(o->map, ELFMAG, SELFMAG) == 0) {
    o->format = CGOFUZZ_OBJ_ELF;
    rc = elf_read(o, path, symbols, err);
  } else if (magic == MH_MAGIC_64) {
    o->format = CGOFUZZ_OBJ_MACHO;
    rc = macho_read(o, path, symbols, err);
  } else if (magic == FAT_MAGIC || magic == FAT_CIGAM) {
    rc = cgofuzz_errf(err, 0,
                      "%s: a universal (fat) Mach-O binary: take one "
                      "architecture out first (lipo -thin arm64)",
                      path);
  } else if (magic == MH_CIGAM_64) {
    rc = cgofuzz_errf(err, 0, "%s: a big-endian Mach-O file", path);
  } else {
    rc = cgofuzz_errf(err, 0, "%s: not an ELF or Mach-O 64-bit file", path);
  }
  if (rc != 0)
    cgofuzz_gobin_obj_close(o);
  return rc;
}

void cgofuzz_gobin_obj_close(cgofuzz_gobin_obj *o) {
  if (o->map)
    munmap((void *)o->map, o->len);
  free(o->sect);
  free(o->seg);
  free(o->sym);
  memset(o, 0, sizeof *o);
}

const cgofuzz_gobin_obj_sect *
cgofuzz_gobin_obj_section(const cgofuzz_gobin_obj *o, const char *elf_name) {
  /* Mach-O: the name itself (clang's "__sancov_cntrs"), or Go's linker's
   * twin of an ELF name: "__", the name without its first byte, every
   * '.' as '_', at most 16 bytes. */
  char go[MACHO_NAME + 1];
  if (!elf_name[0])
    return NULL;
  snprintf(go, sizeof go, "__%s", elf_name + 1);
  for (char *c = go; *c; c++)
    if (*c == '.')
      *c = '_';
  for (size_t i = 0; i < o->nsect; i++) {
    const char *s = o->sect[i].name;
    if (o->format == CGOFUZZ_OBJ_MACHO
            ? !strncmp(s, elf_name, MACHO_NAME) || !strcmp(s, go)
            : !strcmp(s, elf_name))
      return &o->sect[i];
  }
  return NULL;
}

const uint8_t *cgofuzz_gobin_obj_bytes(const cgofuzz_gobin_obj *o,
                                       const cgofuzz_gobin_obj_sect *s) {
  return s && s->in_file ? o->map + s->off : NULL;
}

const uint8_t *cgofuzz_gobin_obj_data_at(const cgofuzz_gobin_obj *o,
                                         uint64_t va, uint64_t n) {
  for (size_t i = 0; i < o->nsect; i++) {
    const cgofuzz_gobin_obj_sect *s = &o->sect[i];
    if (!s->in_file || s->code || va < s->addr || n > s->size ||
        va - s->addr > s->size - n)
      continue;
    return o->map + s->off + (va - s->addr);
  }
  return NULL;
}

const char *cgofuzz_gobin_obj_format_name(const cgofuzz_gobin_obj *o) {
  return o->format == CGOFUZZ_OBJ_MACHO ? "Mach-O" : "ELF";
}

const char *cgofuzz_gobin_obj_arch_name(const cgofuzz_gobin_obj *o) {
  return o->arch == CGOFUZZ_ARCH_AMD64   ? "amd64"
         : o->arch == CGOFUZZ_ARCH_ARM64 ? "arm64"
                                         : "other";
}

uint64_t cgofuzz_gobin_obj_sym_value(const cgofuzz_gobin_obj *o,
                                     const char *name, int kind) {
  for (size_t i = 0; i < o->nsym; i++)
    if ((kind < 0 || o->sym[i].kind == kind) && !strcmp(o->sym[i].name, name))
      return o->sym[i].value;
  return 0;
}

const char *cgofuzz_gobin_obj_func_at(const cgofuzz_gobin_obj *o, uint64_t addr,
                                      uint64_t *off) {
  for (size_t i = 0; i < o->nsym; i++) {
    const cgofuzz_gobin_obj_sym *y = &o->sym[i];
    if (y->kind == CGOFUZZ_SYM_FUNC && *y->name && addr >= y->value &&
        addr - y->value < y->size) {
      *off = addr - y->value;
      return y->name;
    }
  }
  return NULL;
}
