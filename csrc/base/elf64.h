/*
 * elf64.h: the 64-bit ELF definitions cgofuzz reads Go and C binaries
 * with (coverage counters, build info, the dictionary's code and data,
 * the comparison-hook patch). Linux has them in <elf.h>; elsewhere (a
 * macOS host reading linux test binaries, or cross-compiling) they are
 * defined here, with the same names and layouts as the ELF specification
 * (System V ABI, "ELF-64 Object File Format").
 */
#ifndef CGOFUZZ_BASE_ELF64_H
#define CGOFUZZ_BASE_ELF64_H

#if defined(__linux__)
#include <elf.h>
#else
#include <stdint.h>

#define EI_NIDENT 16
#define EI_CLASS 4
#define EI_DATA 5
#define ELFMAG "\177ELF"
#define SELFMAG 4
#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define ET_REL 1
#define ET_EXEC 2
#define SHN_UNDEF 0
#define EM_X86_64 62
#define EM_AARCH64 183
#define PT_LOAD 1
#define PT_NOTE 4
#define PF_X 1
#define PF_W 2
#define PF_R 4
#define SHT_SYMTAB 2
#define SHT_NOBITS 8
#define SHT_GROUP 17
#define GRP_COMDAT 1
#define SHF_ALLOC 0x2
#define SHF_EXECINSTR 0x4
#define STT_OBJECT 1
#define STT_FUNC 2
#define ELF64_ST_TYPE(info) ((info)&0xf)

typedef struct {
  unsigned char e_ident[EI_NIDENT];
  uint16_t e_type, e_machine;
  uint32_t e_version;
  uint64_t e_entry, e_phoff, e_shoff;
  uint32_t e_flags;
  uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} Elf64_Ehdr;

typedef struct {
  uint32_t sh_name, sh_type;
  uint64_t sh_flags, sh_addr, sh_offset, sh_size;
  uint32_t sh_link, sh_info;
  uint64_t sh_addralign, sh_entsize;
} Elf64_Shdr;

typedef struct {
  uint32_t p_type, p_flags;
  uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
} Elf64_Phdr;

typedef struct {
  uint32_t st_name;
  unsigned char st_info, st_other;
  uint16_t st_shndx;
  uint64_t st_value, st_size;
} Elf64_Sym;
#endif
#endif
