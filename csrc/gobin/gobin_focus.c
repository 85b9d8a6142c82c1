/*
 * gobin_focus.c: which of a Go test binary's coverage counters lie on
 * given source lines (-focus: the lines changed since a revision), read
 * from the binary alone.
 *
 * go test -fuzz's instrumentation bumps a block's counter by reading it
 * with a RIP-relative MOVZX (0F B6, ModRM mod 00 r/m 101, a 32-bit
 * displacement; a REX prefix may come first), then storing it back
 * saturated: the load's address is the counter, and its pc's line (Go's
 * own line table, gobin_pcln.c) the block's. The scan reads raw bytes, not
 * decoded instructions: a match counts only when its target lies inside
 * the counter section, which data bytes hardly ever form.
 *
 * Invariants: counters of C code (a cgo package's, through cgo-cc) are
 * never matched (clang bumps them with ADD/INC, and their lines are in
 * DWARF, not in Go's table); a binary without Go's counter section or
 * table gives an error, never an empty focus taken for "nothing changed".
 */
#include <string.h>

#include "gobin.h"
#include "gobin_obj.h"
#include "gobin_pcln.h"

int cgofuzz_gobin_focus(const char *binary, cgofuzz_gobin_focus_fn changed,
                        void *ctx, uint8_t *mask, size_t mask_len,
                        size_t *sites, cgofuzz_err *err) {
  cgofuzz_gobin_obj o;
  cgofuzz_gobin_pcln t;
  *sites = 0;
  if (cgofuzz_gobin_obj_open(&o, binary, false, err) != 0)
    return -1;
  const cgofuzz_gobin_obj_sect *cnt = cgofuzz_gobin_go_section(&o);
  const cgofuzz_gobin_obj_sect *tx = cgofuzz_gobin_obj_section(&o, ".text");
  const uint8_t *code = tx ? cgofuzz_gobin_obj_bytes(&o, tx) : NULL;
  int rc = -1;
  if (!cnt || !code || cgofuzz_gobin_pcln_open(&o, &t) != 0) {
    cgofuzz_errf(err, 0, "%s: no Go coverage counters or line table", binary);
    goto done;
  }
  memset(mask, 0, mask_len);
  for (uint64_t i = 0; i + 7 <= tx->size; i++) {
    if (code[i] != 0x0f || code[i + 1] != 0xb6 || (code[i + 2] & 0xc7) != 5)
      continue;
    uint64_t pc = tx->addr + i;
    uint64_t target =
        pc + 7 +
        (uint64_t)(int64_t)(int32_t)cgofuzz_gobin_obj_u32(code + i + 3);
    if (target < cnt->addr || target - cnt->addr >= cnt->size ||
        target - cnt->addr >= mask_len)
      continue;
    const char *file;
    int line;
    if (!cgofuzz_gobin_pcln_line(&t, pc, &file, &line))
      continue;
    (*sites)++;
    if (changed(ctx, file, line))
      mask[target - cnt->addr] = 1;
  }
  rc = 0;
done:
  cgofuzz_gobin_obj_close(&o);
  return rc;
}
