/*
 * objfile_probe.c: prints what the coordinator reads from a binary without
 * running it (coord.h), for tests/coord/objfile: Go test binaries cross-built
 * for macOS (Mach-O) and linux/arm64, which cannot run here.
 *
 *   objfile_probe BINARY [TARGET DICTOUT]
 *
 * prints "format <ELF|Mach-O> <arch>" (gobin_obj.c's reading; "format -
 * <error>" when it cannot), "go <version>" (or "go - <rc> <error>"), "module
 * <path>", "counters <go counter bytes>", "sancov <C counter bytes>"; with
 * TARGET, takes the dictionary of its code and data
 * (cgofuzz_gobin_godict_all: go tool objdump from $PATH) into DICTOUT and
 * prints "dict <tokens>" or "dict error: <message>".
 */
#include <stdio.h>

#include "fb.h"
#include "gobin.h"
#include "gobin_obj.h"

int main(int argc, char **argv) {
  if (argc != 2 && argc != 4) {
    fprintf(stderr, "usage: objfile_probe BINARY [TARGET DICTOUT]\n");
    return 2;
  }
  const char *bin = argv[1];
  char v[256];
  cgofuzz_err err = {0};
  cgofuzz_gobin_obj o;
  if (cgofuzz_gobin_obj_open(&o, bin, true, &err) == 0) {
    printf("format %s %s\n", cgofuzz_gobin_obj_format_name(&o),
           cgofuzz_gobin_obj_arch_name(&o));
    cgofuzz_gobin_obj_close(&o);
  } else {
    printf("format - %s\n", err.msg);
  }
  err = (cgofuzz_err){0};
  int rc = cgofuzz_gobin_goversion(bin, v, sizeof v, &err);
  if (rc == 1)
    printf("go %s\n", v);
  else
    printf("go - %d %s\n", rc, rc < 0 ? err.msg : "");
  err = (cgofuzz_err){0};
  rc = cgofuzz_gobin_modpath(bin, v, sizeof v, &err);
  printf("module %s\n", rc == 1 && v[0] ? v : "-");
  printf("counters %zu\n", cgofuzz_gobin_go_counters(bin));
  printf("sancov %zu\n",
         cgofuzz_gobin_counters(bin) - cgofuzz_gobin_go_counters(bin));
  if (argc == 4) {
    cgofuzz_fb_dict *d = cgofuzz_fb_dict_new();
    size_t added = 0;
    cgofuzz_gobin_sink sink = cgofuzz_fb_dict_sink(d);
    err = (cgofuzz_err){0};
    if (!d)
      return 1;
    if (cgofuzz_gobin_godict_all(&sink, bin, argv[2], &added, &err) != 0)
      printf("dict error: %s\n", err.msg);
    else if (cgofuzz_fb_dict_write(d, argv[3], argv[2], &err) != 0)
      printf("dict error: %s\n", err.msg);
    else
      printf("dict %zu\n", cgofuzz_fb_dict_count(d, -1));
    cgofuzz_fb_dict_free(d);
  }
  return 0;
}
