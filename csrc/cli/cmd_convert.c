/*
 * cmd_convert.c: `cgofuzz corpus convert`: between the raw files of
 * libFuzzer-style engines (ClusterFuzz's testcases, a bot's corpus) and the
 * "go test fuzz v1" files of Go's testdata/fuzz/<Target>, which plain
 * `go test -run=<Target>/<name>` replays.
 *
 *   cgofuzz corpus convert [-to go|raw] [-from raw|go118] (-launcher FILE
 *       | -types LIST [-target NAME]) [-o DIR] [-go 1.N] FILE...
 *
 * The target's argument kinds come from a launcher's payload (-launcher
 * $OUT/NAME, which also names the target) or from -types ("[]byte,int").
 * Raw bytes map to the arguments by core/rawargs.h. -to go (the default)
 * writes each file as Go names it (the first 16 hex digits of the sha256
 * of its encoding, all 64 for go1.18 and go1.19) into -o, by default
 * testdata/fuzz/<Target>; a file that already is a corpus file is checked
 * against the kinds and written in canonical form. -to raw writes each corpus
 * file's raw encoding into -o (required), named by the sha1 of its bytes as
 * libFuzzer names corpus files. Each path written is printed on stdout.
 *
 * -from go118: the raw files come from a go-118-fuzz-build target
 * (OSS-Fuzz's native Go fuzzers), whose bytes map to the arguments the way
 * go-fuzz-headers consumes them (go118.h), not by core/rawargs.h; a file
 * that build would not pass to the target at all is an error (exit 1).
 *
 * Corpus files are read, written and named as Go release -go 1.N does, by
 * default the user's (cli_gover_default).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "codec.h"
#include "dir.h"
#include "go118.h"
#include "rawargs.h"
#include "sha1.h"

static void usage_convert(const cgofuzz_flag *flags, size_t n) {
  fprintf(stderr,
          "usage: cgofuzz corpus convert [-to go|raw] [-from raw|go118] "
          "(-launcher FILE | -types LIST [-target NAME]) [-o DIR] [-go 1.N] "
          "FILE...\n"
          "Converts raw fuzzer inputs to \"go test fuzz v1\" files (-to go) "
          "or back (-to raw).\n");
  cli_print_flags(flags, n);
}

static int parse_types(const char *list, cgofuzz_kind **kinds, size_t *n) {
  char *s = strdup(list), *save = NULL;
  size_t cap = 1;
  for (const char *c = list; *c; c++)
    cap += *c == ',';
  *kinds = calloc(cap, sizeof **kinds);
  *n = 0;
  if (!s || !*kinds) {
    free(s);
    return -1;
  }
  int rc = 0;
  for (char *t = strtok_r(s, ",", &save); t && rc == 0;
       t = strtok_r(NULL, ",", &save)) {
    while (*t == ' ' || *t == '\t')
      t++;
    size_t l = strlen(t);
    while (l && (t[l - 1] == ' ' || t[l - 1] == '\t'))
      t[--l] = '\0';
    if (cgofuzz_kind_parse(t, &(*kinds)[*n]) != 0) {
      fprintf(stderr,
              "cgofuzz corpus convert: -types: \"%s\" is not a type a Go "
              "fuzz target can take\n",
              t);
      rc = -1;
    } else {
      (*n)++;
    }
  }
  free(s);
  if (rc == 0 && *n == 0) {
    fprintf(stderr, "cgofuzz corpus convert: -types names no type\n");
    rc = -1;
  }
  return rc;
}

/* Converts one file. Returns an exit status. */
static int convert_one(const char *path, bool to_go, bool go118,
                       const char *outdir, const cgofuzz_kind *kinds, size_t nk,
                       cgofuzz_gover gover) {
  cgofuzz_buf in = {0}, raw = {0}, out = {0}, back = {0}, name = {0};
  cgofuzz_values vals = {0};
  cgofuzz_err err = {0};
  int rc = CLI_EXIT_USAGE;
  if (cli_read_file(path, &in) != 0)
    goto done;
  bool corpus = cgofuzz_rawargs_is_corpus_file(in.data, in.len);
  if (corpus || !to_go) {
    if (!corpus) {
      fprintf(stderr,
              "%s: not a \"go test fuzz v1\" file (its first line is not "
              "the header)\n",
              path);
      goto done;
    }
    if (cgofuzz_rawargs_from_corpus_v(kinds, nk, in.data, in.len, gover, &raw,
                                      &err) != 0) {
      if (err.line > 0)
        fprintf(stderr, "%s:%d: %s\n", path, err.line, err.msg);
      else
        fprintf(stderr, "%s: %s\n", path, err.msg);
      goto done;
    }
  } else if (go118) {
    /* go-fuzz-headers' layout: straight to the values. */
    int r = cli_go118_decode(kinds, nk, in.data, in.len, &vals, &err);
    if (r == -2)
      goto oom;
    if (r != 0) {
      fprintf(stderr, "%s: %s\n", path, err.msg);
      rc = CLI_EXIT_FAIL;
      goto done;
    }
  } else {
    if (cgofuzz_buf_append(&raw, in.data, in.len) != 0)
      goto oom;
    /* Bytes the values do not keep (trailing bytes, a bool's high bits)
     * are lost: say so, since converting back gives other bytes. */
    if (cgofuzz_rawargs_decode(kinds, nk, in.data, in.len, &vals) != 0 ||
        cgofuzz_rawargs_encode(vals.v, vals.n, &back) != 0)
      goto oom;
    if (back.len != in.len || (in.len && memcmp(back.data, in.data, in.len)))
      fprintf(stderr,
              "cgofuzz corpus convert: note: %s: some bytes do not reach the "
              "target's arguments; converting back gives %zu other bytes "
              "with the same values\n",
              path, back.len);
  }
  if (to_go) {
    /* go118 decoded the values already; a raw file maps to them by
     * core/rawargs' layout. */
    if ((go118 && !corpus)
            ? cgofuzz_codec_encode_v(vals.v, vals.n, gover, &out, &err)
            : cgofuzz_rawargs_to_corpus_v(kinds, nk, raw.data, raw.len, gover,
                                          &out, &err)) {
      fprintf(stderr, "%s: %s\n", path, err.msg);
      rc = CLI_EXIT_FAIL;
      goto done;
    }
    char h[CGOFUZZ_CODEC_NAME_MAX];
    cgofuzz_codec_name_v(out.data, out.len, gover, h);
    if (cgofuzz_buf_printf(&name, "%s/%s%c", outdir, h, 0) != 0)
      goto oom;
  } else {
    if (cgofuzz_buf_append(&out, raw.data, raw.len) != 0)
      goto oom;
    char h[41];
    cgofuzz_sha1_hex(out.data, out.len, h);
    if (cgofuzz_buf_printf(&name, "%s/%s%c", outdir, h, 0) != 0)
      goto oom;
  }
  if (cli_write_file_atomic((const char *)name.data, out.data, out.len, 0644) !=
      0) {
    rc = CLI_EXIT_FAIL;
    goto done;
  }
  printf("%s\n", (const char *)name.data);
  rc = CLI_EXIT_OK;
  goto done;
oom:
  fprintf(stderr, "cgofuzz corpus convert: out of memory\n");
  rc = CLI_EXIT_FAIL;
done:
  cgofuzz_values_free(&vals);
  cgofuzz_buf *bufs[] = {&in, &raw, &out, &back, &name};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
    cgofuzz_buf_free(bufs[i]);
  return rc;
}

int cli_cmd_convert(int argc, char **argv) {
  const char *to = "go", *from = "raw", *launcher = NULL, *types = NULL,
             *target = NULL, *outdir = NULL;
  cgofuzz_gover gover = 0; /* -go, else cli_gover_default() */
  cgofuzz_flag flags[] = {
      {.name = "to",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &to,
       .usage = "`go` (corpus files, the default) or raw (libFuzzer inputs)"},
      {.name = "from",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &from,
       .usage = "how raw files map to the arguments: `raw` (cgofuzz and "
                "compile-go-fuzzer, docs/raw-inputs.md) or go118 "
                "(go-118-fuzz-build targets, read-only: -to go)"},
      {.name = "launcher",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &launcher,
       .usage = "the target's `FILE` written by compile-go-fuzzer "
                "($OUT/NAME): its target and argument types"},
      {.name = "types",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &types,
       .usage = "the target's argument types, e.g. `[]byte,int,string`"},
      {.name = "target",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &target,
       .usage = "with -types: the fuzz target's `name` (for the default -o)"},
      {.name = "o",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &outdir,
       .usage = "output `dir` (-to go: default testdata/fuzz/<Target>)"},
      CLI_GOVER_FLAG(&gover),
  };
  size_t nflags = sizeof flags / sizeof flags[0];
  int first = cli_parse_flags("corpus convert", flags, nflags, argc, argv);
  if (first < 0) {
    usage_convert(flags, nflags);
    return first == CGOFUZZ_FLAGS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  }
  bool to_go = strcmp(to, "go") == 0;
  if (!to_go && strcmp(to, "raw") != 0) {
    fprintf(stderr, "cgofuzz corpus convert: -to must be go or raw, not %s\n",
            to);
    return CLI_EXIT_USAGE;
  }
  bool go118 = strcmp(from, "go118") == 0;
  if (!go118 && strcmp(from, "raw") != 0) {
    fprintf(stderr,
            "cgofuzz corpus convert: -from must be raw or go118, not %s\n",
            from);
    return CLI_EXIT_USAGE;
  }
  if (go118 && !to_go) {
    fprintf(stderr, "cgofuzz corpus convert: -from go118 converts to go "
                    "files only (-to go)\n");
    return CLI_EXIT_USAGE;
  }
  if (!launcher == !types) {
    fprintf(stderr, "cgofuzz corpus convert: give one of -launcher and "
                    "-types\n");
    usage_convert(flags, nflags);
    return CLI_EXIT_USAGE;
  }
  if (first == argc) {
    fprintf(stderr, "cgofuzz corpus convert: no files given\n");
    usage_convert(flags, nflags);
    return CLI_EXIT_USAGE;
  }
  if (!gover)
    gover = cli_gover_default();
  int rc = CLI_EXIT_USAGE;
  cli_golaunch g = {0};
  cgofuzz_kind *kinds = NULL;
  size_t nk = 0;
  cgofuzz_buf dflt = {0};
  if (launcher) {
    int r = cli_golaunch_read(launcher, &g);
    if (r == 0)
      fprintf(stderr,
              "cgofuzz corpus convert: %s: not a Go fuzz target launcher "
              "(no payload from cgofuzz compile-go-fuzzer)\n",
              launcher);
    if (r != 1)
      goto done;
    if (target && strcmp(target, g.target) != 0) {
      fprintf(stderr, "cgofuzz corpus convert: -target %s, but %s fuzzes %s\n",
              target, launcher, g.target);
      goto done;
    }
    target = g.target;
    kinds = g.kinds;
    nk = g.n_kinds;
  } else if (parse_types(types, &kinds, &nk) != 0) {
    goto done;
  }
  if (!outdir) {
    if (!to_go || !target) {
      fprintf(stderr, "cgofuzz corpus convert: -o is required %s\n",
              to_go ? "without a target name (-launcher or -target)"
                    : "with -to raw");
      goto done;
    }
    if (cgofuzz_buf_printf(&dflt, "testdata/fuzz/%s%c", target, 0) != 0) {
      rc = CLI_EXIT_FAIL;
      goto done;
    }
    outdir = (const char *)dflt.data;
  }
  if (cgofuzz_dir_make_all(outdir, 0755) != 0) {
    fprintf(stderr, "cgofuzz corpus convert: %s: %s\n", outdir,
            strerror(errno));
    rc = CLI_EXIT_FAIL;
    goto done;
  }
  rc = CLI_EXIT_OK;
  for (int i = first; i < argc; i++) {
    int r = convert_one(argv[i], to_go, go118, outdir, kinds, nk, gover);
    if (r > rc)
      rc = r;
  }
  if (fflush(stdout) != 0) {
    fprintf(stderr, "cgofuzz: writing to stdout failed\n");
    rc = CLI_EXIT_FAIL;
  }
done:
  if (launcher)
    cli_golaunch_free(&g);
  else
    free(kinds);
  cgofuzz_buf_free(&dflt);
  return rc;
}
