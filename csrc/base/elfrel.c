/*
 * elfrel.c: in-place edits of ELF relocatable objects (elfrel.h).
 *
 * The headers are read with pread into memory, checked against the file's
 * size before any table is used, and only the fields edited are written
 * back, so a failure half-way leaves every other byte as it was.
 */
#include "elfrel.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf64.h"

#define MAX_SECTIONS 65280 /* below SHN_LORESERVE: no extended numbering */

typedef struct obj {
  int fd;
  uint64_t size;
  Elf64_Ehdr eh;
  Elf64_Shdr *sh;
  char *shstr; /* the section-name string table */
  uint64_t shstr_size;
} obj;

static void obj_close(obj *o) {
  if (o->fd >= 0)
    close(o->fd);
  free(o->sh);
  free(o->shstr);
  memset(o, 0, sizeof *o);
  o->fd = -1;
}

/* 1: opened; 0: not a 64-bit little-endian relocatable object (o closed);
 * -1: unreadable or malformed (err set). */
static int obj_open(obj *o, const char *path, bool writable, cgofuzz_err *err) {
  memset(o, 0, sizeof *o);
  o->fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  if (o->fd < 0)
    return cgofuzz_errf(err, 0, "%s: %s", path, strerror(errno));
  struct stat st;
  if (fstat(o->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      (uint64_t)st.st_size < sizeof o->eh ||
      cgofuzz_pread_all(o->fd, &o->eh, sizeof o->eh, 0) != 0 ||
      memcmp(o->eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      o->eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      o->eh.e_ident[EI_DATA] != ELFDATA2LSB || o->eh.e_type != ET_REL) {
    obj_close(o);
    return 0;
  }
  o->size = (uint64_t)st.st_size;
  uint64_t n = o->eh.e_shnum;
  if (o->eh.e_shentsize != sizeof(Elf64_Shdr) || n == 0 || n > MAX_SECTIONS ||
      o->eh.e_shoff > o->size ||
      n * sizeof(Elf64_Shdr) > o->size - o->eh.e_shoff || o->eh.e_shstrndx >= n)
    goto bad;
  if (!(o->sh = malloc(n * sizeof *o->sh)) ||
      cgofuzz_pread_all(o->fd, o->sh, n * sizeof *o->sh, o->eh.e_shoff) != 0)
    goto bad;
  const Elf64_Shdr *ss = &o->sh[o->eh.e_shstrndx];
  if (ss->sh_offset > o->size || ss->sh_size > o->size - ss->sh_offset ||
      ss->sh_size == 0)
    goto bad;
  o->shstr_size = ss->sh_size;
  if (!(o->shstr = malloc(ss->sh_size + 1)) ||
      cgofuzz_pread_all(o->fd, o->shstr, ss->sh_size, ss->sh_offset) != 0)
    goto bad;
  o->shstr[ss->sh_size] = 0;
  return 1;
bad:
  obj_close(o);
  return cgofuzz_errf(err, 0, "%s: a malformed ELF object", path);
}

static bool named(const obj *o, const Elf64_Shdr *s, const char *name) {
  return s->sh_name < o->shstr_size && strcmp(o->shstr + s->sh_name, name) == 0;
}

/* The symbol names of one symbol table, for the groups' signatures. */
typedef struct symtab {
  Elf64_Sym *syms;
  uint64_t nsyms;
  char *strs;
  uint64_t nstrs;
} symtab;

static void symtab_free(symtab *t) {
  free(t->syms);
  free(t->strs);
  memset(t, 0, sizeof *t);
}

/* Reads the symbol table of section index i. 0, or -1 when malformed or
 * out of memory. */
static int symtab_read(const obj *o, uint64_t i, symtab *t) {
  memset(t, 0, sizeof *t);
  if (i >= o->eh.e_shnum)
    return -1;
  const Elf64_Shdr *s = &o->sh[i];
  if (s->sh_type != SHT_SYMTAB || s->sh_link >= o->eh.e_shnum ||
      s->sh_entsize != sizeof(Elf64_Sym) || s->sh_offset > o->size ||
      s->sh_size > o->size - s->sh_offset)
    return -1;
  const Elf64_Shdr *st = &o->sh[s->sh_link];
  if (st->sh_offset > o->size || st->sh_size > o->size - st->sh_offset)
    return -1;
  t->nsyms = s->sh_size / sizeof(Elf64_Sym);
  t->nstrs = st->sh_size;
  t->syms = malloc(s->sh_size ? s->sh_size : 1);
  t->strs = malloc(st->sh_size + 1);
  if (!t->syms || !t->strs ||
      cgofuzz_pread_all(o->fd, t->syms, s->sh_size, s->sh_offset) != 0 ||
      cgofuzz_pread_all(o->fd, t->strs, st->sh_size, st->sh_offset) != 0) {
    symtab_free(t);
    return -1;
  }
  t->strs[st->sh_size] = 0;
  return 0;
}

/* Marks in dropped[] the sections of o's COMDAT groups whose signature g
 * holds already, and adds the others' signatures to g. 0, or -1 with err
 * set. */
static int drop_kept_groups(const obj *o, const char *path, cgofuzz_hashset *g,
                            bool *dropped, cgofuzz_err *err) {
  symtab t = {0};
  uint64_t t_index = UINT64_MAX;
  int rc = 0;
  for (uint64_t i = 0; i < o->eh.e_shnum && rc == 0; i++) {
    const Elf64_Shdr *s = &o->sh[i];
    if (s->sh_type != SHT_GROUP)
      continue;
    if (s->sh_link != t_index) { /* the groups' table, read once */
      symtab_free(&t);
      t_index = s->sh_link;
      if (symtab_read(o, s->sh_link, &t) != 0)
        t_index = UINT64_MAX;
    }
    uint32_t *w = NULL;
    if (t_index == UINT64_MAX || s->sh_offset > o->size ||
        s->sh_size > o->size - s->sh_offset || s->sh_size < 4 ||
        s->sh_size % 4 || s->sh_info >= t.nsyms ||
        t.syms[s->sh_info].st_name >= t.nstrs || !(w = malloc(s->sh_size)) ||
        cgofuzz_pread_all(o->fd, w, s->sh_size, s->sh_offset) != 0) {
      free(w);
      rc = cgofuzz_errf(err, 0, "%s: a malformed section group", path);
      break;
    }
    if (w[0] & GRP_COMDAT) {
      uint64_t h = 1469598103934665603ull;
      for (const char *p = t.strs + t.syms[s->sh_info].st_name; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
      int added = cgofuzz_hashset_add(g, h);
      if (added < 0)
        rc = cgofuzz_errf(err, 0, "out of memory");
      for (uint64_t k = 1; added == 0 && k < s->sh_size / 4; k++)
        if (w[k] < o->eh.e_shnum)
          dropped[w[k]] = true;
    }
    free(w);
  }
  symtab_free(&t);
  return rc;
}

int cgofuzz_elfrel_append_size(const char *path, const char *name, uint64_t *at,
                               cgofuzz_hashset *groups, cgofuzz_err *err) {
  obj o;
  int r = obj_open(&o, path, false, err);
  if (r <= 0)
    return r;
  bool *dropped = calloc(o.eh.e_shnum, sizeof *dropped);
  if (!dropped) {
    obj_close(&o);
    return cgofuzz_errf(err, 0, "out of memory");
  }
  if (groups && drop_kept_groups(&o, path, groups, dropped, err) != 0) {
    free(dropped);
    obj_close(&o);
    return -1;
  }
  for (uint64_t i = 0; i < o.eh.e_shnum; i++) {
    const Elf64_Shdr *s = &o.sh[i];
    if (!named(&o, s, name) || dropped[i])
      continue;
    uint64_t a = s->sh_addralign ? s->sh_addralign : 1;
    uint64_t start = (*at + a - 1) / a * a;
    /* Counter sections are small and aligned to a power of two; anything
     * else would wrap the running offset into a wrong linker script. */
    if ((a & (a - 1)) != 0 || *at > UINT64_MAX - (a - 1) ||
        s->sh_size > UINT64_MAX - start) {
      unsigned long long size = s->sh_size; /* s goes with o */
      free(dropped);
      obj_close(&o);
      return cgofuzz_errf(err, 0,
                          "%s: section %s of %llu bytes aligned to %llu "
                          "cannot be placed",
                          path, name, size, (unsigned long long)a);
    }
    *at = start + s->sh_size;
  }
  free(dropped);
  obj_close(&o);
  return 0;
}

int cgofuzz_elfrel_make_nobits(const char *path, const char *name, int *count,
                               cgofuzz_err *err) {
  obj o;
  *count = 0;
  int r = obj_open(&o, path, true, err);
  if (r == 0)
    return cgofuzz_errf(err, 0, "%s: not an ELF relocatable object", path);
  if (r < 0)
    return -1;
  int rc = 0;
  for (uint64_t i = 0; i < o.eh.e_shnum && rc == 0; i++) {
    Elf64_Shdr *s = &o.sh[i];
    if (!named(&o, s, name) || s->sh_type == SHT_NOBITS)
      continue;
    s->sh_type = SHT_NOBITS;
    uint64_t off = o.eh.e_shoff + i * sizeof *s + offsetof(Elf64_Shdr, sh_type);
    if (cgofuzz_pwrite_all(o.fd, &s->sh_type, sizeof s->sh_type, off) != 0)
      rc = cgofuzz_errf(err, 0, "%s: %s", path, strerror(errno));
    else
      ++*count;
  }
  obj_close(&o);
  return rc;
}

int cgofuzz_elfrel_section(const char *path, uint64_t shndx, char *name,
                           size_t n, uint64_t *size, cgofuzz_err *err) {
  obj o;
  int r = obj_open(&o, path, false, err);
  if (r == 0)
    return cgofuzz_errf(err, 0, "%s: not an ELF relocatable object", path);
  if (r < 0)
    return -1;
  int rc = 0;
  if (shndx == 0 || shndx >= o.eh.e_shnum) {
    rc = cgofuzz_errf(err, 0, "%s: no section %llu", path,
                      (unsigned long long)shndx);
  } else {
    const Elf64_Shdr *sh = &o.sh[shndx];
    snprintf(name, n, "%s",
             sh->sh_name < o.shstr_size ? o.shstr + sh->sh_name : "");
    *size = sh->sh_size;
  }
  obj_close(&o);
  return rc;
}

/* Calls fn for each symbol of the object's symbol table, with its name and
 * the file offset of its entry; stops when fn returns non-zero. */
static int each_symbol(obj *o, const char *path,
                       int (*fn)(void *ctx, Elf64_Sym *sym, const char *name,
                                 uint64_t off),
                       void *ctx, cgofuzz_err *err) {
  for (uint64_t i = 0; i < o->eh.e_shnum; i++) {
    const Elf64_Shdr *s = &o->sh[i];
    if (s->sh_type != SHT_SYMTAB)
      continue;
    if (s->sh_link >= o->eh.e_shnum || s->sh_entsize != sizeof(Elf64_Sym) ||
        s->sh_offset > o->size || s->sh_size > o->size - s->sh_offset)
      return cgofuzz_errf(err, 0, "%s: a malformed symbol table", path);
    const Elf64_Shdr *st = &o->sh[s->sh_link];
    if (st->sh_offset > o->size || st->sh_size > o->size - st->sh_offset)
      return cgofuzz_errf(err, 0, "%s: a malformed string table", path);
    char *strs = malloc(st->sh_size + 1);
    Elf64_Sym *syms = malloc(s->sh_size ? s->sh_size : 1);
    int rc = 0;
    if (!strs || !syms ||
        cgofuzz_pread_all(o->fd, strs, st->sh_size, st->sh_offset) != 0 ||
        cgofuzz_pread_all(o->fd, syms, s->sh_size, s->sh_offset) != 0)
      rc = cgofuzz_errf(err, 0, "%s: cannot read the symbol table", path);
    else
      strs[st->sh_size] = 0;
    for (uint64_t k = 0; rc == 0 && k < s->sh_size / sizeof *syms; k++) {
      if (syms[k].st_name >= st->sh_size)
        continue;
      rc = fn(ctx, &syms[k], strs + syms[k].st_name,
              s->sh_offset + k * sizeof *syms);
    }
    free(strs);
    free(syms);
    return rc < 0 ? -1 : 0;
  }
  return 0;
}

typedef struct move_ctx {
  int fd;
  uint64_t shndx, value, delta;
  int moved;
  int werr; /* errno of a failed write, 0 if none */
} move_ctx;

static int move_one(void *ctx, Elf64_Sym *sym, const char *name, uint64_t off) {
  (void)name;
  move_ctx *m = ctx;
  if (sym->st_shndx != m->shndx || sym->st_value != m->value)
    return 0;
  uint64_t v = sym->st_value + m->delta;
  if (cgofuzz_pwrite_all(m->fd, &v, sizeof v,
                         off + offsetof(Elf64_Sym, st_value)) != 0) {
    m->werr = errno ? errno : EIO;
    return 1;
  }
  m->moved++;
  return 0;
}

int cgofuzz_elfrel_move_symbols(const char *path, uint64_t shndx,
                                uint64_t value, uint64_t delta, int *moved,
                                cgofuzz_err *err) {
  obj o;
  *moved = 0;
  int r = obj_open(&o, path, true, err);
  if (r == 0)
    return cgofuzz_errf(err, 0, "%s: not an ELF relocatable object", path);
  if (r < 0)
    return -1;
  move_ctx m = {o.fd, shndx, value, delta, 0, 0};
  int rc = each_symbol(&o, path, move_one, &m, err);
  if (rc == 0 && m.werr)
    rc = cgofuzz_errf(err, 0, "%s: %s", path, strerror(m.werr));
  *moved = m.moved;
  obj_close(&o);
  return rc;
}

typedef struct def_ctx {
  const char *name;
  bool found;
  uint64_t value, shndx;
} def_ctx;

static int def_one(void *ctx, Elf64_Sym *sym, const char *name, uint64_t off) {
  (void)off;
  def_ctx *d = ctx;
  if (sym->st_shndx != SHN_UNDEF && strcmp(name, d->name) == 0) {
    d->found = true;
    d->value = sym->st_value;
    d->shndx = sym->st_shndx;
    return 1;
  }
  return 0;
}

bool cgofuzz_elfrel_defines(const char *path, const char *name) {
  obj o;
  if (obj_open(&o, path, false, NULL) <= 0)
    return false;
  def_ctx d = {name, false, 0, 0};
  each_symbol(&o, path, def_one, &d, NULL);
  obj_close(&o);
  return d.found;
}

int cgofuzz_elfrel_symbol(const char *path, const char *name, uint64_t *value,
                          uint64_t *shndx, cgofuzz_err *err) {
  obj o;
  int r = obj_open(&o, path, false, err);
  if (r <= 0)
    return r;
  def_ctx d = {name, false, 0, 0};
  r = each_symbol(&o, path, def_one, &d, err);
  obj_close(&o);
  if (r < 0)
    return -1;
  *value = d.value;
  *shndx = d.shndx;
  return d.found ? 1 : 0;
}
