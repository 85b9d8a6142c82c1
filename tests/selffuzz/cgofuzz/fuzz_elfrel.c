/*
 * fuzz_elfrel.c: self-fuzzing harness (libFuzzer form, built with `cgofuzz
 * cc`) for the in-place editor of ELF relocatable objects
 * (csrc/base/elfrel.c) that `cgofuzz cgo-cc` runs on every object of a cgo
 * build: the compiler's output, go.o, and whatever else is on the link line.
 *
 * The calls are the ones cmd_cgocc.c makes, in its order: the final link's
 * questions (where go.o's counter range ends, which section that is, how
 * many counter bytes the C objects add, whether an object defines a
 * sanitizer hook), then its edits (moving the symbols at the range's end,
 * turning the counter sections into NOBITS). Each must answer or fail with
 * a message, never read or write outside the file, and leave the file's
 * size unchanged (its contract: other tools still read the object).
 */
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "elfrel.h"

#include "harness_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_size(const char *path, size_t size) {
  struct stat st;
  CHECK(stat(path, &st) == 0 && (size_t)st.st_size == size);
}

/* rc is 0 or -1; -1 comes with a message. */
static void check_rc(int rc, const cgofuzz_err *err) {
  CHECK(rc == 0 || (rc == -1 && err->msg[0] != '\0'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  const char *path = harness_file(data, size);
  cgofuzz_err err = {0};

  uint64_t end = 0, shndx = 0;
  int has = cgofuzz_elfrel_symbol(path, "internal/fuzz._ecounters", &end,
                                  &shndx, &err);
  CHECK(has == 1 || has == 0 || (has == -1 && err.msg[0] != '\0'));
  char sec[64] = "";
  uint64_t sec_n = 0;
  if (has == 1) {
    err.msg[0] = '\0';
    int rc = cgofuzz_elfrel_section(path, shndx, sec, sizeof sec, &sec_n, &err);
    check_rc(rc, &err);
    CHECK(rc != 0 || memchr(sec, 0, sizeof sec) != NULL);
  }
  /* Small buffers cut the name but still end it. */
  for (uint64_t i = 0; i < 6; i++) {
    char tiny[4] = "";
    uint64_t n = 0;
    err.msg[0] = '\0';
    check_rc(cgofuzz_elfrel_section(path, i, tiny, sizeof tiny, &n, &err),
             &err);
    CHECK(memchr(tiny, 0, sizeof tiny) != NULL);
  }
  uint64_t at = 3, before = at;
  err.msg[0] = '\0';
  int rc = cgofuzz_elfrel_append_size(path, "__sancov_cntrs", &at, NULL, &err);
  check_rc(rc, &err);
  CHECK(rc != 0 || at >= before);
  /* With the COMDAT groups read: the same object twice counts its grouped
   * counters once, so never more than without them. */
  cgofuzz_hashset groups = {0};
  uint64_t g1 = before, g2;
  err.msg[0] = '\0';
  int rg =
      cgofuzz_elfrel_append_size(path, "__sancov_cntrs", &g1, &groups, &err);
  check_rc(rg, &err);
  g2 = g1;
  if (rg == 0) {
    err.msg[0] = '\0';
    check_rc(
        cgofuzz_elfrel_append_size(path, "__sancov_cntrs", &g2, &groups, &err),
        &err);
    CHECK(rc != 0 || g1 == at);
  }
  cgofuzz_hashset_free(&groups);
  (void)cgofuzz_elfrel_defines(path, "__sanitizer_cov_trace_cmp1");
  check_size(path, size);

  if (has == 1) {
    int moved = 0;
    err.msg[0] = '\0';
    rc = cgofuzz_elfrel_move_symbols(path, shndx, end, 16, &moved, &err);
    check_rc(rc, &err);
    CHECK(moved >= 0);
    check_size(path, size);
  }
  int changed = 0;
  err.msg[0] = '\0';
  rc = cgofuzz_elfrel_make_nobits(path, "__sancov_cntrs", &changed, &err);
  check_rc(rc, &err);
  CHECK(changed >= 0);
  check_size(path, size);
  /* A second time finds them NOBITS already and changes nothing. */
  if (rc == 0) {
    int again = -1;
    CHECK(cgofuzz_elfrel_make_nobits(path, "__sancov_cntrs", &again, &err) ==
          0);
    CHECK(again == 0);
  }
  return 0;
}
