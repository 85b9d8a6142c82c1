/*
 * fuzz_objdump.c: self-fuzzing harness (libFuzzer form, built with
 * `cgofuzz cc`) for the reader of `go tool objdump` output that takes a Go
 * test binary's constants for the dictionary (csrc/gobin/gobin_godict.c:
 * on_line, on_insn and the register tracking under them), through
 * cgofuzz_gobin_godict_code_read, which reads output already in a file as
 * cgofuzz_gobin_godict_code_poll reads objdump's.
 *
 * The reader resolves addresses in the binary's data, so it needs a
 * binary: a small ELF image made here once, in a memfd: .text at 0x401000,
 * Go's string data (the symbol go:string.*) at 0x402000, a string header
 * table main.table at 0x403000 pointing into it, the fuzz target
 * main.FuzzX and runtime.memequal. The input is objdump's output for it;
 * one that starts with 'A' is read as arm64's (the image's machine is
 * then AArch64), the 'A' dropped.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fb_internal.h"

#include "../libfuzzer/harness_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { TEXT = 0x401000, STR = 0x402000, TAB = 0x403000 };

static const char strdata[64] = "magicwordPREFIXalphabravocharlie";
static const char strtab[] = "\0main.FuzzX\0go:string.*\0main.table\0"
                             "runtime.memequal\0main.after";
static const char shstrtab[] = "\0.text\0.rodata\0.data\0.symtab\0.strtab\0"
                               ".shstrtab";

/* Writes the image for machine into fd. */
static void make_image(int fd, uint16_t machine) {
  uint8_t img[2048];
  memset(img, 0, sizeof img);
  size_t at = sizeof(Elf64_Ehdr);
  size_t text = at, rodata = text + 16, dat = rodata + sizeof strdata;
  /* .text: cmpq $42, %rax; ret (never read: objdump's text is the input) */
  memcpy(img + text, "\x48\x83\xf8\x2a\xc3", 5);
  memcpy(img + rodata, strdata, sizeof strdata);
  /* main.table: string headers (pointer, length) into the string data. */
  uint64_t hdrs[6] = {STR, 9, STR + 9, 6, STR + 15, 5};
  memcpy(img + dat, hdrs, sizeof hdrs);
  size_t symoff = dat + sizeof hdrs;
  Elf64_Sym syms[6] = {{0}};
  const struct {
    size_t name;
    int type, shndx;
    uint64_t value, size;
  } def[] = {{1, STT_FUNC, 1, TEXT, 16},
             {12, STT_OBJECT, 2, STR, 0},
             {24, STT_OBJECT, 3, TAB, sizeof hdrs},
             {35, STT_FUNC, 1, TEXT + 8, 8},
             {52, STT_OBJECT, 2, STR + sizeof strdata, 0}};
  for (size_t i = 0; i < 5; i++)
    syms[i + 1] = (Elf64_Sym){.st_name = (uint32_t)def[i].name,
                              .st_info = ELF64_ST_INFO(STB_GLOBAL, def[i].type),
                              .st_shndx = (uint16_t)def[i].shndx,
                              .st_value = def[i].value,
                              .st_size = def[i].size};
  memcpy(img + symoff, syms, sizeof syms);
  size_t stroff = symoff + sizeof syms;
  memcpy(img + stroff, strtab, sizeof strtab);
  size_t shstroff = stroff + sizeof strtab;
  memcpy(img + shstroff, shstrtab, sizeof shstrtab);
  size_t shoff = (shstroff + sizeof shstrtab + 7) & ~(size_t)7;
  Elf64_Shdr sh[7] = {{0}};
  sh[1] = (Elf64_Shdr){
      1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT, text, 16, 0, 0, 16, 0};
  sh[2] = (Elf64_Shdr){
      7, SHT_PROGBITS, SHF_ALLOC, STR, rodata, sizeof strdata, 0, 0, 1, 0};
  sh[3] = (Elf64_Shdr){
      15, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, TAB, dat, sizeof hdrs, 0, 0, 8,
      0};
  sh[4] = (Elf64_Shdr){21,          SHT_SYMTAB, 0, 0, symoff,
                       sizeof syms, 5,          1, 8, sizeof(Elf64_Sym)};
  sh[5] = (Elf64_Shdr){29, SHT_STRTAB, 0, 0, stroff, sizeof strtab, 0, 0, 1, 0};
  sh[6] =
      (Elf64_Shdr){37, SHT_STRTAB, 0, 0, shstroff, sizeof shstrtab, 0, 0, 1, 0};
  CHECK(shoff + sizeof sh <= sizeof img);
  memcpy(img + shoff, sh, sizeof sh);
  Elf64_Ehdr eh = {.e_type = ET_EXEC,
                   .e_machine = machine,
                   .e_version = EV_CURRENT,
                   .e_entry = TEXT,
                   .e_shoff = shoff,
                   .e_ehsize = sizeof eh,
                   .e_shentsize = sizeof(Elf64_Shdr),
                   .e_shnum = 7,
                   .e_shstrndx = 6};
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  memcpy(img, &eh, sizeof eh);
  size_t len = shoff + sizeof sh;
  CHECK(pwrite(fd, img, len, 0) == (ssize_t)len);
}

static int image[2] = {-1, -1};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  if (image[0] < 0) {
    image[0] = memfd_create("selffuzz-objdump-amd64", MFD_CLOEXEC);
    image[1] = memfd_create("selffuzz-objdump-arm64", MFD_CLOEXEC);
    CHECK(image[0] >= 0 && image[1] >= 0);
    make_image(image[0], EM_X86_64);
    make_image(image[1], EM_AARCH64);
  }
  int arm64 = size > 0 && data[0] == 'A';
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", image[arm64]);
  /* fmemopen of no bytes may fail: an empty output reads as one newline. */
  static char newline[] = "\n";
  size_t n = size - (size_t)arm64;
  FILE *f =
      n ? fmemopen((void *)(data + arm64), n, "r") : fmemopen(newline, 1, "r");
  CHECK(f != NULL);
  cgofuzz_fb_dict *d = cgofuzz_fb_dict_new();
  CHECK(d != NULL);
  size_t added = 0;
  cgofuzz_gobin_sink sink = cgofuzz_fb_dict_sink(d);
  cgofuzz_err err = {0};
  int rc =
      cgofuzz_gobin_godict_code_read(&sink, path, "FuzzX", f, &added, &err);
  CHECK(rc == 1 || rc == -1);
  CHECK(rc != 1 || added == d->n);
  for (size_t i = 0; i < d->n; i++)
    CHECK(d->t[i].len <= 256 && d->t[i].b != NULL);
  cgofuzz_fb_dict_free(d);
  fclose(f);
  return 0;
}
