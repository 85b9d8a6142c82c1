/*
 * fuzz_cmppatch.c: self-fuzzing harness (libFuzzer form, built with `cgofuzz
 * cc`) for the patcher that writes the copies of a Go test binary cgofuzz's
 * workers run (csrc/gobin/gobin_patch.c: comparison hooks that record
 * their operands, a coverage snapshot eight counters at a time).
 *
 * The patcher reads a binary it did not build: program and section
 * headers, the symbol table or Go's function table, the hooks' bodies and
 * SnapshotCoverage's code. For each input, both kinds of copy are asked
 * for: it is written, or refused with a message, never a read or
 * write outside what was mapped; a copy written opens as an ELF file and
 * is no shorter than the binary (the copy appends, never cuts).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gobin.h"
#include "gobin_obj.h"
#include "gobin_patch.h"

#include "harness_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The copy's path: one per process, in a directory of its own. */
static const char *out_path(void) {
  static char path[4096];
  if (!path[0]) {
    const char *t = getenv("TMPDIR");
    char dir[4000];
    snprintf(dir, sizeof dir, "%s/selffuzz-cmppatch-XXXXXX",
             t && *t ? t : "/tmp");
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/copy", dir);
  }
  return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  const char *in = harness_file(data, size);
  const char *out = out_path();
  static const unsigned kinds[] = {CGOFUZZ_GOBIN_PATCH_HOOKS,
                                   CGOFUZZ_GOBIN_PATCH_SNAPSHOT};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    unlink(out);
    cgofuzz_gobin_patched info;
    memset(&info, 0, sizeof info);
    cgofuzz_err err = {0};
    int rc = cgofuzz_gobin_patch(in, out, 1 << 16, 1 << 16, kinds[k], NULL,
                                 &info, &err);
    CHECK(rc == 0 || rc == -1);
    if (rc != 0) {
      CHECK(err.msg[0] != '\0');
      continue;
    }
    struct stat st;
    CHECK(stat(out, &st) == 0 && (size_t)st.st_size >= size);
    cgofuzz_gobin_obj o;
    CHECK(cgofuzz_gobin_obj_open(&o, out, true, &err) == 0);
    CHECK(o.format == CGOFUZZ_OBJ_ELF);
    cgofuzz_gobin_obj_close(&o);
  }
  return 0;
}
