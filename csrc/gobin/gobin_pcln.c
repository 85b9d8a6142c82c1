/*
 * gobin_pcln.c: Go's function table (gobin_pcln.h).
 *
 * The table's header, from go1.18 (magic 0xfffffff0; 0xfffffff1 from
 * go1.20): magic, 4 bytes, then pointer-sized nfunc, nfiles, textStart (0
 * from go1.26: runtime.text, found below), funcnameOffset, cuOffset,
 * filetabOffset, pctabOffset, pclnOffset. At pclnOffset, nfunc + 1
 * (entryoff, funcoff) pairs of uint32 (the last entryoff is the end of
 * the code); a function's record (_func) at pclnOffset+funcoff:
 * entryOff, nameOff, args, deferreturn, pcsp, pcfile, pcln, npcdata,
 * cuOffset (uint32 each), from go1.20 startLine, then funcID, flag, a pad
 * byte and nfuncdata (bytes), then npcdata uint32 offsets into pctab and
 * nfuncdata uint32 offsets from the module's go:func.* base (~0: none).
 *
 * An inlined call is an entry of its caller's inline tree (funcdata 3):
 * 16 bytes from go1.20 (funcID, 3 pad bytes, nameOff, parentPc,
 * startLine), 20 before (parent int16, funcID, a pad byte, file, line,
 * nameOff, parentPc); nameOff indexes funcnametab, parentPc is an offset
 * from the caller's entry. How many entries a tree has is the highest
 * index its pc-value table (pcdata 2) takes, plus one.
 */
#include <string.h>

#include "gobin_pcln.h"

enum { PCDATA_INL_INDEX = 2, FUNCDATA_INL_TREE = 3 };
/* The module data's words read: its go:func.* base (gofunc) is word 38
 * in go1.18, 40 in go1.20-go1.26, 43 in go1.27, as fields came and went
 * before it; find_gofunc tries each word from GOFUNC_FROM on. */
#define MD_WORDS 48
#define GOFUNC_FROM 30
#define MAX_INL 65536 /* entries in one function's tree */

/* The runtime's first module data (runtime.firstmoduledata: in .go.module
 * from go1.26, .noptrdata before): found by its first word, the table's
 * address. NULL when not found. */
static const uint8_t *module_data(const cgofuzz_gobin_obj *o, uint64_t pclntab,
                                  size_t words) {
  static const char *const homes[] = {".go.module", ".noptrdata"};
  for (size_t k = 0; k < sizeof homes / sizeof homes[0]; k++) {
    const cgofuzz_gobin_obj_sect *nd = cgofuzz_gobin_obj_section(o, homes[k]);
    const uint8_t *d = nd ? cgofuzz_gobin_obj_bytes(o, nd) : NULL;
    for (uint64_t at = 0; d && at + 8 * words <= nd->size; at += 8)
      if (cgofuzz_gobin_obj_u64(d + at) == pclntab)
        return d + at;
  }
  return NULL;
}

/* Where Go's code starts (runtime.text), for a table whose offsets count
 * from there: the module data's minpc, 20 words in (after pcHeader, six
 * slices and findfunctab), when it lies in .text; else .text's start
 * (internally linked; an externally linked binary has the C start-up code
 * first). */
static void module_text(cgofuzz_gobin_pcln *t, const uint8_t *md,
                        const cgofuzz_gobin_obj_sect *tx) {
  uint64_t minpc = md ? cgofuzz_gobin_obj_u64(md + 8 * 20) : 0;
  uint64_t maxpc = md ? cgofuzz_gobin_obj_u64(md + 8 * 21) : 0;
  if (!t->text)
    t->text = minpc >= tx->addr && minpc < maxpc && maxpc <= tx->addr + tx->size
                  ? minpc
                  : tx->addr;
}

/* The i-th function's record, at least need bytes of it in the table;
 * NULL when it does not fit. */
static const uint8_t *func_rec(const cgofuzz_gobin_pcln *t, uint64_t i,
                               uint64_t need) {
  uint64_t fo = t->funcs + cgofuzz_gobin_obj_u32(t->h + t->funcs + 8 * i + 4);
  return fo <= t->n && need <= t->n - fo ? t->h + fo : NULL;
}

/* Whether funcnametab's name at off is name. */
static bool name_is(const cgofuzz_gobin_pcln *t, int32_t off, const char *name,
                    size_t len) {
  uint64_t at = t->names + (uint64_t)(int64_t)off;
  return off >= 0 && at <= t->n && len + 1 <= t->n - at &&
         memcmp(t->h + at, name, len + 1) == 0;
}

uint64_t cgofuzz_gobin_pcln_find(const cgofuzz_gobin_pcln *t, const char *name,
                                 uint64_t *end) {
  size_t len = strlen(name);
  for (uint64_t i = 0; i < t->nfunc; i++) {
    const uint8_t *f = func_rec(t, i, 8);
    if (!f || !name_is(t, (int32_t)cgofuzz_gobin_obj_u32(f + 4), name, len))
      continue;
    const uint8_t *ft = t->h + t->funcs + 8 * i;
    if (end)
      *end = t->text + cgofuzz_gobin_obj_u32(ft + 8);
    return t->text + cgofuzz_gobin_obj_u32(ft);
  }
  return 0;
}

/* An unsigned varint at p[*i..n), advancing *i; false past the end. */
static bool uvarint(const uint8_t *p, size_t n, size_t *i, uint64_t *v) {
  *v = 0;
  for (unsigned shift = 0; *i < n && shift < 64; shift += 7) {
    uint8_t b = p[(*i)++];
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return true;
  }
  return false;
}

/* One step of a pc-value table, read at *i: a zig-zag value delta onto
 * *v, then a pc delta onto *pc (amd64's pc quantum is 1); a zero value
 * delta after the first step ends the table. false at its end. */
static bool pcvalue_step(const cgofuzz_gobin_pcln *t, size_t *i, bool first,
                         int64_t *v, uint64_t *pc) {
  uint64_t d, pcd;
  if (!uvarint(t->h, t->n, i, &d) || (d == 0 && !first) ||
      !uvarint(t->h, t->n, i, &pcd))
    return false;
  *v += (d & 1) ? (int64_t) ~(d >> 1) : (int64_t)(d >> 1);
  *pc += pcd;
  return true;
}

/* The highest value a pc-value table at pctab offset off takes (it
 * starts at -1), or -1. */
static int64_t pcvalue_max(const cgofuzz_gobin_pcln *t, uint32_t off) {
  size_t i = (size_t)(t->pctab + off);
  int64_t v = -1, max = -1;
  uint64_t pc = 0;
  for (bool first = true; pcvalue_step(t, &i, first, &v, &pc); first = false)
    if (v > max)
      max = v < MAX_INL ? v : MAX_INL - 1;
  return max;
}

/* The i-th function's inline tree: its address in *tree and its entries'
 * count, 0 when it has none. */
static uint64_t inl_tree(const cgofuzz_gobin_pcln *t, uint64_t i,
                         uint64_t *tree) {
  uint64_t head = t->go120 ? 44 : 40;
  const uint8_t *f = func_rec(t, i, head);
  if (!f)
    return 0;
  uint32_t npcdata = cgofuzz_gobin_obj_u32(f + 28), nfuncdata = f[head - 1];
  if (npcdata <= PCDATA_INL_INDEX || nfuncdata <= FUNCDATA_INL_TREE ||
      !func_rec(t, i, head + 4ull * (npcdata + nfuncdata)))
    return 0;
  uint32_t pc_off = cgofuzz_gobin_obj_u32(f + head + 4 * PCDATA_INL_INDEX);
  uint32_t fd_off =
      cgofuzz_gobin_obj_u32(f + head + 4ull * (npcdata + FUNCDATA_INL_TREE));
  if (!pc_off || fd_off == 0xffffffffu || t->pctab + pc_off >= t->n)
    return 0;
  *tree = t->gofunc + fd_off;
  return (uint64_t)(pcvalue_max(t, pc_off) + 1);
}

/* Whether base, taken for gofunc, reads the first trees of the table
 * (up to 64) as inline trees: each inside the file's data, each entry's
 * name the start of a name in funcnametab (which ends where cutab
 * starts). At least one tree must be read. */
static bool trees_read(const cgofuzz_gobin_pcln *t, uint64_t base) {
  cgofuzz_gobin_pcln c = *t;
  c.gofunc = base;
  size_t size = t->go120 ? 16 : 20, name_at = t->go120 ? 4 : 12;
  uint64_t cu = cgofuzz_gobin_obj_u64(t->h + 40), seen = 0;
  if (cu <= t->names || cu > t->n)
    return false;
  for (uint64_t i = 0; i < t->nfunc && seen < 64; i++) {
    uint64_t tree = 0, k = inl_tree(&c, i, &tree);
    if (!k)
      continue;
    const uint8_t *e = cgofuzz_gobin_obj_data_at(t->obj, tree, k * size);
    if (!e)
      return false;
    for (uint64_t j = 0; j < k; j++, e += size) {
      int32_t off = (int32_t)cgofuzz_gobin_obj_u32(e + name_at);
      if (off < 0 || (uint64_t)off >= cu - t->names ||
          (off > 0 && t->h[t->names + (uint64_t)off - 1] != 0))
        return false;
    }
    seen++;
  }
  return seen > 0;
}

/* The go:func.* base: the first word of the module data past
 * GOFUNC_FROM under which the inline trees read (trees_read); 0 when
 * none does. */
static uint64_t find_gofunc(const cgofuzz_gobin_pcln *t, const uint8_t *md) {
  for (size_t w = GOFUNC_FROM; w < MD_WORDS; w++) {
    uint64_t v = cgofuzz_gobin_obj_u64(md + 8 * w);
    if (v && cgofuzz_gobin_obj_data_at(t->obj, v, 1) && trees_read(t, v))
      return v;
  }
  return 0;
}

int cgofuzz_gobin_pcln_open(const cgofuzz_gobin_obj *o, cgofuzz_gobin_pcln *t) {
  memset(t, 0, sizeof *t);
  const cgofuzz_gobin_obj_sect *pt = cgofuzz_gobin_obj_section(o, ".gopclntab");
  const cgofuzz_gobin_obj_sect *tx = cgofuzz_gobin_obj_section(o, ".text");
  const uint8_t *h = pt ? cgofuzz_gobin_obj_bytes(o, pt) : NULL;
  if (!h || !tx || pt->size < 72)
    return -1;
  uint32_t magic = cgofuzz_gobin_obj_u32(h);
  if ((magic != 0xfffffff0u && magic != 0xfffffff1u) || h[7] != 8)
    return -1;
  t->obj = o;
  t->h = h;
  t->n = (size_t)pt->size;
  t->go120 = magic == 0xfffffff1u;
  t->nfunc = cgofuzz_gobin_obj_u64(h + 8);
  t->text = cgofuzz_gobin_obj_u64(h + 24);
  t->names = cgofuzz_gobin_obj_u64(h + 32);
  t->pctab = cgofuzz_gobin_obj_u64(h + 56);
  t->funcs = cgofuzz_gobin_obj_u64(h + 64);
  /* room for nfunc pairs and the final entryoff */
  if (t->funcs > t->n || t->nfunc >= (t->n - t->funcs) / 8 || t->names > t->n ||
      t->pctab > t->n)
    return -1;
  t->md = module_data(o, pt->addr, MD_WORDS);
  module_text(t, t->md, tx);
  return 0;
}

long cgofuzz_gobin_pcln_inlined(cgofuzz_gobin_pcln *t, const char *name,
                                void (*fn)(void *ctx, uint64_t site),
                                void *ctx) {
  if (!t->gofunc_read) { /* found once, when first asked for */
    t->gofunc = t->md ? find_gofunc(t, t->md) : 0;
    t->gofunc_read = true;
  }
  if (!t->gofunc)
    return -1;
  size_t len = strlen(name), size = t->go120 ? 16 : 20;
  size_t name_at = t->go120 ? 4 : 12, pc_at = t->go120 ? 8 : 16;
  long found = 0;
  for (uint64_t i = 0; i < t->nfunc; i++) {
    uint64_t tree = 0, k = inl_tree(t, i, &tree);
    const uint8_t *e =
        k ? cgofuzz_gobin_obj_data_at(t->obj, tree, k * size) : NULL;
    for (uint64_t j = 0; e && j < k; j++, e += size) {
      if (!name_is(t, (int32_t)cgofuzz_gobin_obj_u32(e + name_at), name, len))
        continue;
      fn(ctx, t->text + cgofuzz_gobin_obj_u32(t->h + t->funcs + 8 * i) +
                  cgofuzz_gobin_obj_u32(e + pc_at));
      found++;
    }
  }
  return found;
}

/* The value a pc-value table at pctab offset off gives pc in a function
 * that starts at entry (the table covers [entry, end) in steps), or
 * false when pc is past it. */
static bool pcvalue_at(const cgofuzz_gobin_pcln *t, uint32_t off,
                       uint64_t entry, uint64_t pc, int64_t *out) {
  size_t i = (size_t)(t->pctab + off);
  int64_t v = -1;
  uint64_t at = entry;
  for (bool first = true; pcvalue_step(t, &i, first, &v, &at); first = false)
    if (pc < at) {
      *out = v;
      return true;
    }
  return false;
}

/* The index of the function whose code holds pc (the functab is sorted by
 * entry), or nfunc. */
static uint64_t func_of(const cgofuzz_gobin_pcln *t, uint64_t pc) {
  if (pc < t->text)
    return t->nfunc;
  uint64_t off = pc - t->text, lo = 0, hi = t->nfunc;
  if (hi == 0 || off >= cgofuzz_gobin_obj_u32(t->h + t->funcs + 8 * t->nfunc))
    return t->nfunc;
  while (hi - lo > 1) { /* entry(lo) <= off < entry(hi) */
    uint64_t mid = lo + (hi - lo) / 2;
    if (cgofuzz_gobin_obj_u32(t->h + t->funcs + 8 * mid) <= off)
      lo = mid;
    else
      hi = mid;
  }
  return cgofuzz_gobin_obj_u32(t->h + t->funcs + 8 * lo) <= off ? lo : t->nfunc;
}

bool cgofuzz_gobin_pcln_line(const cgofuzz_gobin_pcln *t, uint64_t pc,
                             const char **file, int *line) {
  uint64_t i = func_of(t, pc);
  const uint8_t *f = i < t->nfunc ? func_rec(t, i, 36) : NULL;
  if (!f)
    return false;
  uint64_t entry = t->text + cgofuzz_gobin_obj_u32(t->h + t->funcs + 8 * i);
  uint64_t cutab = cgofuzz_gobin_obj_u64(t->h + 40),
           filetab = cgofuzz_gobin_obj_u64(t->h + 48);
  int64_t fno, ln;
  if (!pcvalue_at(t, cgofuzz_gobin_obj_u32(f + 20), entry, pc, &fno) ||
      !pcvalue_at(t, cgofuzz_gobin_obj_u32(f + 24), entry, pc, &ln) ||
      fno < 0 || ln < 0)
    return false;
  uint64_t cu =
      cutab + 4 * ((uint64_t)cgofuzz_gobin_obj_u32(f + 32) + (uint64_t)fno);
  if (cutab > t->n || cu + 4 > t->n)
    return false;
  uint32_t fo = cgofuzz_gobin_obj_u32(t->h + cu);
  if (fo == 0xffffffffu || filetab + fo >= t->n ||
      !memchr(t->h + filetab + fo, 0, t->n - (filetab + fo)))
    return false;
  *file = (const char *)t->h + filetab + fo;
  *line = (int)ln;
  return true;
}
