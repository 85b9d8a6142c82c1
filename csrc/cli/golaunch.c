/*
 * golaunch.c: Go fuzz target launchers, the files `cgofuzz
 * compile-go-fuzzer` writes to $OUT for ClusterFuzz, OSS-Fuzz and
 * ClusterFuzzLite.
 *
 * A launcher is this very program (a copy of /proc/self/exe) with a payload
 * appended:
 *
 *   [cgofuzz][test binary][metadata][trailer]
 *
 * The trailer is the file's last CLI_GOLAUNCH_TRAILER (80) bytes, all
 * integers little-endian:
 *
 *   0  u32 version (CLI_GOLAUNCH_VERSION)   4 u32 reserved, 0
 *   8  u64 offset of the test binary (the length of the cgofuzz part)
 *   16 u64 length of the test binary        24 u64 length of the metadata
 *   32 sha256 of the test binary and the metadata (32 bytes)
 *   64 the magic "cgofuzz-golaunch" (16 bytes)
 *
 * and offset + lengths + 80 must be the file's size. The metadata is the
 * 8 bytes "CGFZMETA" then records, each u32 tag, u32 length, that many
 * bytes: 1 the fuzz target ("FuzzX"), 2 its argument kinds as Go type
 * names joined by commas ("[]byte,int"), 3 a seed, an encoded "go test
 * fuzz v1" file (one record per seed: the f.Add seeds in order, then the
 * package's testdata/fuzz/FuzzX files by name), 4 the fuzzer's NAME, 5 the
 * package's import path, 6 a line describing the build. Unknown tags are
 * skipped; an incompatible change bumps the version.
 *
 * When main() finds such a trailer on /proc/self/exe, the program is a
 * launcher: it extracts the test binary once to
 * ${TMPDIR:-/tmp}/cgofuzz-go/<16 hex digits of the sha256>/<NAME>.test
 * (written under a temporary name and renamed, so concurrent starts are
 * safe; reused when present with the right size) and hands libFuzzer's
 * command line to the lf front end with that binary as the worker program.
 * A Go test binary's command line (-test.* flags, or no argument) runs the
 * test binary itself; with FUZZ_CORPUS_DIR set, it runs the corpus there
 * first (OSS-Fuzz's coverage run, gocover.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "file.h"
#include "lf.h"
#include "os.h"
#include "scratch.h"
#include "sha256.h"

/* ClusterFuzz (and OSS-Fuzz's and ClusterFuzzLite's helpers) take a file in
 * the build directory for a fuzz target only if its bytes contain this
 * string (clusterfuzz utils.is_fuzz_target_local). A launcher is a copy of
 * this program, so the string must be in this program: kept by `used`
 * although nothing refers to it. */
__attribute__((used)) static const char cli_clusterfuzz_marker[] =
    "cgofuzz Go fuzz target launcher: LLVMFuzzerTestOneInput";

#define GOLAUNCH_MAGIC "cgofuzz-golaunch"
static const uint8_t elf_magic[4] = {0x7f, 'E', 'L', 'F'};
#define GOLAUNCH_META_MAGIC "CGFZMETA"

enum {
  TAG_TARGET = 1,
  TAG_KINDS = 2,
  TAG_SEED = 3,
  TAG_FUZZER = 4,
  TAG_PKG = 5,
  TAG_INFO = 6,
};

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static uint64_t get64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static int put_record(cgofuzz_buf *b, uint32_t tag, const void *p, size_t n) {
  uint8_t h[8];
  if (n > UINT32_MAX)
    return -1;
  put32(h, tag);
  put32(h + 4, (uint32_t)n);
  if (cgofuzz_buf_append(b, h, 8) != 0)
    return -1;
  return n ? cgofuzz_buf_append(b, p, n) : 0;
}

static int put_string(cgofuzz_buf *b, uint32_t tag, const char *s) {
  return s ? put_record(b, tag, s, strlen(s)) : 0;
}

int cli_golaunch_write(const char *path, const char *self_exe,
                       const uint8_t *bin, size_t bin_len,
                       const cli_golaunch *g) {
  cgofuzz_buf out = {0}, meta = {0}, kinds = {0};
  int rc = -1;
  /* Our own bytes, without a payload of our own if we are a launcher. */
  if (cli_read_file(self_exe, &out) != 0)
    goto done;
  cli_golaunch self = {0};
  int r = cli_golaunch_read(self_exe, &self);
  if (r < 0)
    goto done;
  if (r == 1) {
    out.len = (size_t)self.bin_off;
    cli_golaunch_free(&self);
  }
  uint64_t exe_len = out.len;
  for (size_t i = 0; i < g->n_kinds; i++)
    if (cgofuzz_buf_printf(&kinds, "%s%s", i ? "," : "",
                           cgofuzz_kind_name(g->kinds[i])) != 0)
      goto oom;
  if (cgofuzz_buf_puts(&meta, GOLAUNCH_META_MAGIC) != 0 ||
      put_string(&meta, TAG_TARGET, g->target) != 0 ||
      put_record(&meta, TAG_KINDS, kinds.data, kinds.len) != 0 ||
      put_string(&meta, TAG_FUZZER, g->fuzzer) != 0 ||
      put_string(&meta, TAG_PKG, g->pkg) != 0 ||
      put_string(&meta, TAG_INFO, g->info) != 0)
    goto oom;
  for (size_t i = 0; i < g->n_seeds; i++)
    if (put_record(&meta, TAG_SEED, g->seeds[i].data, g->seeds[i].len) != 0)
      goto oom;
  if (cgofuzz_buf_append(&out, bin, bin_len) != 0 ||
      cgofuzz_buf_append(&out, meta.data, meta.len) != 0 ||
      cgofuzz_buf_reserve(&out, CLI_GOLAUNCH_TRAILER) != 0)
    goto oom;
  uint8_t *t = out.data + out.len;
  memset(t, 0, CLI_GOLAUNCH_TRAILER);
  put32(t, CLI_GOLAUNCH_VERSION);
  put64(t + 8, exe_len);
  put64(t + 16, bin_len);
  put64(t + 24, meta.len);
  cgofuzz_sha256(out.data + exe_len, bin_len + meta.len, t + 32);
  memcpy(t + 64, GOLAUNCH_MAGIC, 16);
  out.len += CLI_GOLAUNCH_TRAILER;
  if (cli_write_file_atomic(path, out.data, out.len, 0755) != 0)
    goto done;
  /* An existing file keeps its mode through the atomic write: a fuzz
   * target must be executable whatever was there before. */
  if (chmod(path, 0755) != 0) {
    fprintf(stderr, "cgofuzz: %s: chmod: %s\n", path, strerror(errno));
    goto done;
  }
  rc = 0;
  goto done;
oom:
  fprintf(stderr, "cgofuzz: %s: out of memory\n", path);
done:
  cgofuzz_buf_free(&out);
  cgofuzz_buf_free(&meta);
  cgofuzz_buf_free(&kinds);
  return rc;
}

void cli_golaunch_free(cli_golaunch *g) {
  free(g->target);
  free(g->fuzzer);
  free(g->pkg);
  free(g->info);
  free(g->kinds);
  for (size_t i = 0; i < g->n_seeds; i++)
    cgofuzz_buf_free(&g->seeds[i]);
  free(g->seeds);
  memset(g, 0, sizeof *g);
}

static char *dup_n(const uint8_t *p, size_t n) {
  char *s = malloc(n + 1);
  if (s) {
    memcpy(s, p, n);
    s[n] = '\0';
  }
  return s;
}

/* Parses the kinds record ("[]byte,int"). */
static int parse_kinds(const uint8_t *p, size_t n, cli_golaunch *g,
                       const char **why) {
  char *s = dup_n(p, n);
  if (!s) {
    *why = "out of memory";
    return -1;
  }
  size_t cap = 1;
  for (size_t i = 0; i < n; i++)
    cap += p[i] == ',';
  g->kinds = calloc(cap, sizeof *g->kinds);
  int rc = g->kinds ? 0 : -1;
  *why = "out of memory";
  char *save = NULL;
  for (char *t = n ? strtok_r(s, ",", &save) : NULL; t && rc == 0;
       t = strtok_r(NULL, ",", &save)) {
    if (g->n_kinds == cap || cgofuzz_kind_parse(t, &g->kinds[g->n_kinds]) != 0)
      rc = -1, *why = "unknown argument type in the kinds record";
    else
      g->n_kinds++;
  }
  free(s);
  return rc;
}

static int parse_meta(const uint8_t *m, size_t n, cli_golaunch *g,
                      const char **why) {
  size_t ml = strlen(GOLAUNCH_META_MAGIC);
  if (n < ml || memcmp(m, GOLAUNCH_META_MAGIC, ml) != 0) {
    *why = "the metadata does not start with " GOLAUNCH_META_MAGIC;
    return -1;
  }
  bool have_kinds = false;
  for (size_t i = ml; i < n;) {
    if (n - i < 8) {
      *why = "truncated metadata record header";
      return -1;
    }
    uint32_t tag = get32(m + i), len = get32(m + i + 4);
    i += 8;
    if (len > n - i) {
      *why = "a metadata record runs past the end of the metadata";
      return -1;
    }
    const uint8_t *p = m + i;
    char **str = tag == TAG_TARGET   ? &g->target
                 : tag == TAG_FUZZER ? &g->fuzzer
                 : tag == TAG_PKG    ? &g->pkg
                 : tag == TAG_INFO   ? &g->info
                                     : NULL;
    *why = "out of memory";
    if (str) {
      if (memchr(p, '\0', len)) {
        *why = "a metadata string holds a NUL byte";
        return -1;
      }
      free(*str);
      if (!(*str = dup_n(p, len)))
        return -1;
    } else if (tag == TAG_KINDS) {
      if (have_kinds) {
        *why = "two kinds records";
        return -1;
      }
      have_kinds = true;
      if (parse_kinds(p, len, g, why) != 0)
        return -1;
    } else if (tag == TAG_SEED) {
      cgofuzz_buf *ns = realloc(g->seeds, (g->n_seeds + 1) * sizeof *ns);
      if (!ns)
        return -1;
      g->seeds = ns;
      memset(&ns[g->n_seeds], 0, sizeof *ns);
      if (cgofuzz_buf_append(&ns[g->n_seeds], p, len) != 0)
        return -1;
      g->n_seeds++;
    } /* other tags: later additions, skipped */
    i += len;
  }
  if (!g->target || !*g->target) {
    *why = "no fuzz target name in the metadata";
    return -1;
  }
  if (!have_kinds || g->n_kinds == 0) {
    *why = "no argument kinds in the metadata";
    return -1;
  }
  return 0;
}

/* Where the ELF executable at the start of fd ends: past its section
 * header table and every segment's file bytes. 0 if it is not a 64-bit
 * ELF file. */
static uint64_t elf_end(int fd, uint64_t size) {
  uint8_t h[64];
  if (size < sizeof h || cgofuzz_pread_all(fd, h, sizeof h, 0) != 0 ||
      memcmp(h, elf_magic, 4) != 0 || h[4] != 2 /* ELFCLASS64 */ ||
      h[5] != 1 /* little-endian */)
    return 0;
  uint64_t phoff = get64(h + 0x20), shoff = get64(h + 0x28);
  uint16_t phentsize = (uint16_t)(h[0x36] | h[0x37] << 8);
  uint16_t phnum = (uint16_t)(h[0x38] | h[0x39] << 8);
  uint16_t shentsize = (uint16_t)(h[0x3a] | h[0x3b] << 8);
  uint16_t shnum = (uint16_t)(h[0x3c] | h[0x3d] << 8);
  uint64_t end = shoff + (uint64_t)shnum * shentsize;
  for (uint16_t i = 0; i < phnum && phentsize >= 56; i++) {
    uint8_t ph[56];
    if (cgofuzz_pread_all(fd, ph, sizeof ph, phoff + (uint64_t)i * phentsize) !=
        0)
      return 0;
    uint64_t e = get64(ph + 8) + get64(ph + 32); /* p_offset + p_filesz */
    if (e > end)
      end = e;
  }
  return end;
}

/* cli_golaunch_read; with quiet_open, a file that cannot be opened is
 * "no payload" (main() must not fail for plain cgofuzz when /proc/self/exe
 * cannot be read). */
static int read_payload(const char *path, cli_golaunch *g, bool quiet_open) {
  memset(g, 0, sizeof *g);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (quiet_open)
      return 0;
    fprintf(stderr, "cgofuzz: %s: %s\n", path, strerror(errno));
    return -1;
  }
  struct stat st;
  uint8_t t[CLI_GOLAUNCH_TRAILER];
  uint8_t *meta = NULL;
  const char *why = NULL;
  int rc = -1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    fprintf(stderr, "cgofuzz: %s: not a regular file\n", path);
    goto done;
  }
  uint64_t size = (uint64_t)st.st_size;
  if (size < CLI_GOLAUNCH_TRAILER) {
    rc = 0;
    goto done;
  }
  if (cgofuzz_pread_all(fd, t, sizeof t, size - sizeof t) != 0) {
    fprintf(stderr, "cgofuzz: %s: %s\n", path, strerror(errno));
    goto done;
  }
  if (memcmp(t + 64, GOLAUNCH_MAGIC, 16) != 0) {
    /* No trailer: plain cgofuzz or some other file, unless an executable
     * (the test binary) follows the executable's own end: a launcher
     * that was truncated or appended to. */
    uint64_t end = elf_end(fd, size);
    uint8_t m[4];
    if (end && end + 4 <= size && cgofuzz_pread_all(fd, m, 4, end) == 0 &&
        memcmp(m, elf_magic, 4) == 0) {
      why = "a test binary follows the program but the file does not end "
            "with a payload trailer (truncated or appended to?)";
      goto bad;
    }
    rc = 0;
    goto done;
  }
  uint32_t version = get32(t);
  g->bin_off = get64(t + 8);
  g->bin_len = get64(t + 16);
  g->meta_len = get64(t + 24);
  memcpy(g->sha256, t + 32, 32);
  uint64_t room = size - CLI_GOLAUNCH_TRAILER;
  if (version != CLI_GOLAUNCH_VERSION) {
    fprintf(stderr,
            "cgofuzz: %s: a launcher of payload version %u, but this cgofuzz "
            "reads version %u: rebuild it with cgofuzz compile-go-fuzzer\n",
            path, (unsigned)version, (unsigned)CLI_GOLAUNCH_VERSION);
    goto done;
  }
  if (g->bin_off > room || g->bin_len > room - g->bin_off ||
      g->meta_len != room - g->bin_off - g->bin_len) {
    why = "the trailer's offsets and lengths do not add up to the file's "
          "size (truncated or appended to?)";
    goto bad;
  }
  uint8_t m[4];
  if (g->bin_len < 4 || cgofuzz_pread_all(fd, m, 4, g->bin_off) != 0 ||
      memcmp(m, elf_magic, 4) != 0) {
    why = "the payload's test binary is not an ELF executable";
    goto bad;
  }
  if (g->meta_len > (64u << 20) || !(meta = malloc(g->meta_len + 1))) {
    why = "the metadata is too large";
    goto bad;
  }
  if (cgofuzz_pread_all(fd, meta, g->meta_len, g->bin_off + g->bin_len) != 0) {
    fprintf(stderr, "cgofuzz: %s: %s\n", path, strerror(errno));
    goto done;
  }
  if (parse_meta(meta, g->meta_len, g, &why) != 0)
    goto bad;
  if (!g->fuzzer && !(g->fuzzer = strdup(g->target))) {
    why = "out of memory";
    goto bad;
  }
  rc = 1;
  goto done;
bad:
  fprintf(stderr, "cgofuzz: %s: malformed Go fuzz target launcher: %s\n", path,
          why);
done:
  free(meta);
  close(fd);
  if (rc != 1)
    cli_golaunch_free(g);
  return rc;
}

int cli_golaunch_read(const char *path, cli_golaunch *g) {
  return read_payload(path, g, false);
}

/* Makes dir (mode 0700) if missing and checks that it is a directory of
 * ours that nobody else may write to: the cache holds programs we run. */
static int private_dir(const char *dir) {
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
    fprintf(stderr, "cgofuzz: %s: cannot create: %s\n", dir, strerror(errno));
    return -1;
  }
  struct stat st;
  if (lstat(dir, &st) != 0) {
    fprintf(stderr, "cgofuzz: %s: %s\n", dir, strerror(errno));
    return -1;
  }
  if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
      (st.st_mode & 022) != 0) {
    fprintf(stderr,
            "cgofuzz: %s: not a directory of this user that only it can "
            "write to; refusing to run programs from it (set TMPDIR)\n",
            dir);
    return -1;
  }
  return 0;
}

int cli_golaunch_extract(const char *path, const cli_golaunch *g, char **out) {
  cgofuzz_buf dir = {0}, file = {0}, data = {0};
  char hex[17];
  int rc = -1;
  *out = NULL;
  for (int i = 0; i < 8; i++)
    snprintf(hex + 2 * i, 3, "%02x", g->sha256[i]);
  if (cgofuzz_buf_printf(&dir, "%s/cgofuzz-go%c", cgofuzz_tmpdir(), 0) != 0)
    goto oom;
  if (private_dir((const char *)dir.data) != 0)
    goto done;
  dir.len--;
  if (cgofuzz_buf_printf(&dir, "/%s%c", hex, 0) != 0 ||
      cgofuzz_buf_printf(&file, "%s/%s.test%c", (const char *)dir.data,
                         g->fuzzer, 0) != 0)
    goto oom;
  if (private_dir((const char *)dir.data) != 0)
    goto done;
  struct stat st;
  if (stat((const char *)file.data, &st) == 0 && S_ISREG(st.st_mode) &&
      (uint64_t)st.st_size == g->bin_len && (st.st_mode & 0100)) {
    rc = 0; /* extracted before (by us or a concurrent start) */
    goto done;
  }
  /* Read and check the whole payload before anything is run from it. */
  if (g->bin_len + g->meta_len > SIZE_MAX / 2)
    goto oom;
  size_t plen = (size_t)(g->bin_len + g->meta_len);
  if (cgofuzz_buf_reserve(&data, plen) != 0)
    goto oom;
  int in = open(path, O_RDONLY | O_CLOEXEC);
  if (in < 0 || cgofuzz_pread_all(in, data.data, plen, g->bin_off) != 0) {
    fprintf(stderr, "cgofuzz: %s: %s\n", path, strerror(errno));
    if (in >= 0)
      close(in);
    goto done;
  }
  close(in);
  uint8_t sum[32];
  cgofuzz_sha256(data.data, plen, sum);
  if (memcmp(sum, g->sha256, 32) != 0) {
    fprintf(stderr,
            "cgofuzz: %s: malformed Go fuzz target launcher: the payload's "
            "sha256 does not match its trailer (corrupted file?)\n",
            path);
    goto done;
  }
  const char *what;
  if (cgofuzz_file_write_atomic((const char *)file.data, data.data,
                                (size_t)g->bin_len, 0755,
                                CGOFUZZ_FILE_EXACT_MODE, &what) != 0) {
    fprintf(stderr, "cgofuzz: %s: %s failed: %s\n", (const char *)file.data,
            what, strerror(errno));
    goto done;
  }
  rc = 0;
  goto done;
oom:
  fprintf(stderr, "cgofuzz: %s: out of memory\n", path);
done:
  if (rc == 0 && !(*out = strdup((const char *)file.data)))
    rc = -1;
  cgofuzz_buf_free(&dir);
  cgofuzz_buf_free(&file);
  cgofuzz_buf_free(&data);
  return rc;
}

int cli_golaunch_main(int argc, char **argv) {
  char self[PATH_MAX];
  if (cgofuzz_os_self_exe(self, sizeof self) != 0)
    return -1; /* cannot tell: behave as cgofuzz */
  cli_golaunch g;
  int r = read_payload(self, &g, true);
  if (r == 0)
    return -1;
  if (r < 0)
    return CLI_EXIT_FAIL;
  char *bin = NULL;
  if (cli_golaunch_extract(self, &g, &bin) != 0) {
    cli_golaunch_free(&g);
    return CLI_EXIT_FAIL;
  }
  int rc;
  if (!cgofuzz_lf_wanted(argc, argv) && cli_gocover_wanted(argc, argv)) {
    rc = cli_gocover_main(bin, &g, argc, argv);
  } else if (!cgofuzz_lf_wanted(argc, argv)) {
    /* Go's command line (-test.* flags, or nothing): the launcher is the
     * package's test binary. */
    argv[0] = bin;
    execv(bin, argv);
    fprintf(stderr, "cgofuzz: %s: cannot run: %s\n", bin, strerror(errno));
    rc = CLI_EXIT_FAIL;
  } else {
    cgofuzz_lf_target t = {.binary = bin,
                           .name = g.target,
                           .kinds = g.kinds,
                           .n_kinds = g.n_kinds,
                           .seeds = g.seeds,
                           .n_seeds = g.n_seeds,
                           .go = true};
    rc = cgofuzz_lf_main(argc, argv, &t);
  }
  free(bin);
  cli_golaunch_free(&g);
  return rc;
}
