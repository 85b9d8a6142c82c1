#!/usr/bin/env python3
"""seeds.py [HARNESS...]: writes the seeds of the self-fuzzing harnesses of
files read from outside (the harnesses below) into
testdata/selffuzz/<harness>/ as `go test fuzz v1` files named as Go names
them (the first 16 hex digits of their sha256), so that the seeds can be
made again and their provenance is known. Found inputs kept there as
regression seeds are not touched.

obj: a tiny static ELF executable with Go build info (built here with
clang, so it needs clang and ld; about 1.3 KiB), its relocatable object,
the executable without section headers (build info found in the first
writable segment), truncated heads of both, and a hand-made Mach-O 64 file
with two segments, a symbol table and __go_buildinfo.
merge: libFuzzer merge control files of csrc/lf/lf_merge.c (target FuzzX).
records: discovery records of csrc/coord/coord_discover.c.
objdump: `go tool objdump` output for the image fuzz_objdump.c makes
(amd64: text at 0x401000, Go's string data at 0x402000, a table at
0x403000; 'A' first: arm64), and a piece of real output of a Go 1.26
test binary (its addresses point nowhere in that image).
launcher: Go fuzz target launchers of csrc/cli/golaunch.c (a stand-in
for cgofuzz, a tiny ELF test binary, metadata, the 80-byte trailer), one
without seeds, and a cut one (an ELF file followed by another, no
trailer).
go118: go-118-fuzz-build reproducers (csrc/cli/go118.c), each after the
harness's header: a byte N, then N bytes giving the target's argument
kinds (cgofuzz_kind's order): a func(t, []byte) target's inputs (a
length first: as long as the rest, 0 for 30, longer than the rest, none),
the 15-argument target of tests/cli/corpus/test_go118.py (whole, NaN floats,
cut), a (string, int) target.
elfrel: relocatable objects as `cgofuzz cgo-cc` edits them: a C object
with clang's inline 8-bit counters (__sancov_cntrs, a symbol defined and
one undefined), the same with the counters aligned to 3, a go.o stand-in whose .go.fuzzcntrs range ends at
internal/fuzz._ecounters (and an alias there),
and cut heads of both.
cmppatch: a tiny static non-PIE executable laid out as a Go test binary
is for the patcher: Go's comparison hooks as empty bodies (a RET at a
32-byte boundary, INT3 after it), a PT_NOTE header to give up, counters in
.go.fuzzcntrs with internal/fuzz._counters at their start; the same
without section headers; cut heads.
gocover: `go test -coverprofile` output of a two-function package (go1.26.8)
in modes set and count, one of two packages in mode atomic with lines out
of order and a block twice (as gocovmerge's inputs are), a count past
2^64, CRLF line ends, no mode
line, a mode line alone (a package with no statements)."""
import hashlib
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


def go_bytes(data):
    """A go test fuzz v1 file holding one []byte."""
    out = []
    for b in data:
        c = chr(b)
        if c == "\\" or c == '"':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif 0x20 <= b < 0x7f:
            out.append(c)
        else:
            out.append("\\x%02x" % b)
    return ('go test fuzz v1\n[]byte("%s")\n' % "".join(out)).encode()


def write(harness, data):
    d = os.path.join(ROOT, "testdata", "selffuzz", harness)
    os.makedirs(d, exist_ok=True)
    body = go_bytes(data)
    name = hashlib.sha256(body).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(body)


# Go build info as Go writes it (gobin_gover.c): magic, pointer size,
# flags (0x2: inline strings), padding to 32, then uvarint-prefixed
# version and module info (between Go's 16-byte sentinels).
MODINFO = (b"0w\xaf\x0c\x92t\x08\x02A\xe1\xc1\x07\xe6\xd6\x18\xe6"
           b"path\tex.com/m\nmod\tex.com/m\t(devel)\t\n"
           b"\xf92C1\x86\x18 r\x00\x82B\x10A\x16\xd8\xf2")
BUILDINFO = (b"\xff Go buildinf:\x08\x02" + bytes(16) + b"\x08go1.26.8" +
             bytes([len(MODINFO)]) + MODINFO)

C_SOURCE = r"""
__attribute__((section(".go.buildinfo"), used, aligned(16)))
char buildinfo[%d] = "%s";
const char msg[] = "FuzzX";
int counter;
int FuzzX(const char *p) { return p[0] == 'F' ? counter++ : msg[1]; }
void _start(void) { for (;;) ; }
"""


def c_string(data):
    return "".join("\\x%02x" % b for b in data)


def elf_seeds():
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "t.c")
        with open(src, "w") as f:
            f.write(C_SOURCE % (len(BUILDINFO), c_string(BUILDINFO)))
        obj, exe = os.path.join(tmp, "t.o"), os.path.join(tmp, "t")
        # Pages of 16 bytes and no unwind tables keep the file small.
        subprocess.check_call(["clang", "-O1", "-fno-asynchronous-unwind-"
                               "tables", "-c", src, "-o", obj])
        subprocess.check_call(
            ["clang", "-O1", "-nostdlib", "-static",
             "-fno-asynchronous-unwind-tables", "-Wl,--build-id=none",
             "-Wl,-z,norelro", "-Wl,-z,max-page-size=16",
             "-Wl,-z,common-page-size=16", "-Wl,-z,noseparate-code", src,
             "-o", exe])
        with open(obj, "rb") as f:
            o = f.read()
        with open(exe, "rb") as f:
            e = f.read()
    # No section headers: e_shoff, e_shnum, e_shstrndx zeroed.
    bare = bytearray(e)
    struct.pack_into("<Q", bare, 0x28, 0)
    struct.pack_into("<HHH", bare, 0x3a, 0, 0, 0)
    return [e, o, bytes(bare), e[:64], e[:300], o[:len(o) // 2],
            e[:len(e) - 100]]


def macho_seed():
    """A Mach-O 64 file as Go's linker lays it out, in miniature."""
    text = b"\x48\x83\xf8\x2a\xc3" + bytes(11)  # cmpq $42, %rax; ret
    data = BUILDINFO + bytes(-len(BUILDINFO) % 16)
    strtab = b"\0_main.FuzzX\0_go:string.*\0_runtime.buildinfo\0"
    nsyms = 3
    hdr_size, seg_size, sect_size, symtab_size = 32, 72, 80, 24
    cmds = 2 * (seg_size + sect_size) + symtab_size
    text_off = hdr_size + cmds
    data_off = text_off + len(text)
    sym_off = data_off + len(data)
    str_off = sym_off + 16 * nsyms

    def segment(name, addr, off, size, prot, sect, sflags):
        seg = struct.pack("<II16sQQQQIIII", 0x19, seg_size + sect_size,
                          name, addr, size, off, size, prot, prot, 1, 0)
        sec = struct.pack("<16s16sQQIIIIIIII", sect, name, addr, size, off,
                          4, 0, 0, sflags, 0, 0, 0)
        return seg + sec

    out = struct.pack("<IIIIIIII", 0xfeedfacf, 0x01000007, 3, 2, 3, cmds,
                      0, 0)
    out += segment(b"__TEXT", 0x1000, text_off, len(text), 5, b"__text",
                   0x80000400)
    out += segment(b"__DATA", 0x2000, data_off, len(data), 3,
                   b"__go_buildinfo", 0)
    out += struct.pack("<IIIIII", 0x2, symtab_size, sym_off, nsyms, str_off,
                       len(strtab))
    out += text + data
    for strx, sect, value in ((1, 1, 0x1000), (13, 2, 0x2000),
                              (26, 2, 0x2010)):
        out += struct.pack("<IBBHQ", strx, 0x0f, sect, 0, value)
    out += strtab
    return [out, out[:32 + 72]]


SHA = "0123456789abcdef" * 4
MERGE = [
    b"cgofuzz merge control v1\ntarget FuzzX\n",
    b"cgofuzz merge control v1\ntarget FuzzX\ncounters 64\n"
    b"R " + SHA.encode() + b" ok 2 3:1 63:80 \"corpus/a\"\n"
    b"R " + SHA[::-1].encode() + b" crash 0 \"corpus/b\"\n",
    b"cgofuzz merge control v1\ntarget FuzzX\ncounters 8\n"
    b"R " + SHA.encode() + b" timeout 1 7:ff \"x\"\nR " + SHA.encode()[:9],
    b"cgofuzz merge control v1\ntarget FuzzX\ncounters 16\n"
    b"R " + SHA.encode() + b" oom 1 2:4 \"\\x00y\"\n",
    b"cgofuzz merge control v1\ntarget Fuz",
]


def rec(*pairs):
    """Records as the fake worker writes them: "T len\n", bytes, "\n"."""
    return b"".join(b"%c %d\n" % (t, len(v)) + v + b"\n" for t, v in pairs)


V1 = b"go test fuzz v1\n"
RECORDS = [
    rec((ord("E"), b"HOME=/tmp"), (ord("W"), V1 + b"int64(5)\n"),
        (ord("W"), V1 + b'[]byte("abc")\nstring("x")\n')),
    rec((ord("Z"), V1 + b"uint8(0)\nfloat64(0)\nbool(false)\n")),
    rec((ord("W"), V1 + b"rune('a')\n"), (ord("W"), b"bad")),
    rec((ord("E"), b"CGOFUZZ_X=1"), (ord("E"), b"=x"),
        (ord("W"), V1 + b"int(-1)\nuint16(7)\n")),
]



def insn(addr, hexb, text, f="m_test.go:12"):
    return "  %s\t\t0x%x\t\t%s\t\t%s\t\n" % (f, addr, hexb, text)


def objdump_amd64():
    """A fuzz target's code: LEAQ of "magicword" (9 bytes at 0x402000),
    memequal with its length, a 64-bit constant compared through a
    register, the instrumentation's ConstCmp8, a string header stored on
    the stack, a table of the data read in a loop."""
    a, out = 0x401000, ["TEXT main.FuzzX.func1(SB) /m/m_test.go\n"]
    for hexb, text in (
            ("488d05f90f0000", "LEAQ 0xff9(IP), AX"),
            ("bb09000000", "MOVL $0x9, BX"),
            ("e800000000", "CALL runtime.memequal(SB)"),
            ("48b9fecaefbeadde0000", "MOVQ $0xdeadbeefcafe, CX"),
            ("4839c8", "CMPQ AX, CX"),
            ("b8fe87e3ff", "MOVL $-0x1c7802, AX"),
            ("e800000000", "CALL runtime.libfuzzerTraceConstCmp8(SB)"),
            ("488d15e70f0000", "LEAQ 0xfe7(IP), DX"),
            ("4889542408", "MOVQ DX, 0x8(SP)"),
            ("48c744241006000000", "MOVQ $0x6, 0x10(SP)"),
            ("488d0dd91f0000", "LEAQ 0x1fd9(IP), CX"),
            ("488b04c1", "MOVQ 0(CX)(AX*8), AX"),
            ("4883f803", "CMPQ AX, $0x3"),
            ("663d4b50", "CMPW AX, $0x504b"),
            ("c3", "RET")):
        out.append(insn(a, hexb, text))
        a += len(hexb) // 2
    return "".join(out).encode()


def objdump_arm64():
    a, out = 0x401000, ["ATEXT main.FuzzX(SB) /m/m.go\n"]
    for text in ("ADRP 4096(PC), R0", "ADD $0, R0, R0", "MOVD $9, R1",
                 "MOVD $51966, R2", "MOVK $(48879<<16), R2", "CMP R2, R3",
                 "CMP $0x504b, R4", "BL runtime.memequal(SB)",
                 "STP (R0, R1), 8(RSP)",
                 "BL runtime.libfuzzerTraceConstCmp4(SB)", "RET"):
        out.append(insn(a, "00000000", text, "m.go:7"))
        a += 4
    return "".join(out).encode()


REAL_OBJDUMP = """TEXT ex.com/m.FuzzX.func1(SB) /tmp/m/m_test.go
  m_test.go:11\t\t0x5e7200\t\t493b6610\t\tCMPQ SP, 0x10(R14)\t\t\t\t
  m_test.go:11\t\t0x5e720e\t\t4883ec38\t\tSUBQ $0x38, SP\t\t\t\t\t
  m_test.go:12\t\t0x5e7212\t\t48895c2450\t\tMOVQ BX, 0x50(SP)\t\t\t\t
  m_test.go:12\t\t0x5e7243\t\tb808000000\t\tMOVL $0x8, AX\t\t\t\t\t
  m_test.go:12\t\t0x5e724b\t\tb9fe87e3ff\t\tMOVL $-0x1c7802, CX\t\t\t\t
  m_test.go:12\t\t0x5e7250\t\te8cb35fcff\t\tCALL runtime.libfuzzerTraceConstCmp8(SB)\t
  m_test.go:12\t\t0x5e7260\t\t4883f808\t\tCMPQ AX, $0x8\t\t\t\t\t
  m_test.go:12\t\t0x5e7288\t\t0fb61a\t\t\tMOVZX 0(DX), BX\t\t\t\t\t
  m_test.go:12\t\t0x5e728f\t\tb87f000000\t\tMOVL $0x7f, AX\t\t\t\t\t
"""


def launcher(bin_, records, prefix=b"CGOFUZZ-PROGRAM!"):
    meta = b"CGFZMETA" + b"".join(struct.pack("<II", t, len(v)) + v
                                  for t, v in records)
    trailer = struct.pack("<IIQQQ", 1, 0, len(prefix), len(bin_), len(meta))
    trailer += hashlib.sha256(bin_ + meta).digest() + b"cgofuzz-golaunch"
    return prefix + bin_ + meta + trailer


def launcher_seeds():
    elf = b"\x7fELF\x02\x01\x01" + bytes(57)  # a header, no more
    seed = b'go test fuzz v1\n[]byte("a")\nint(7)\n'
    full = launcher(elf, [(1, b"FuzzX"), (2, b"[]byte,int"), (4, b"fuzz_x"),
                          (5, b"ex.com/m"), (6, b"go1.26.8 cgofuzz"),
                          (3, seed), (3, seed[:20]), (9, b"later tag")])
    bare = launcher(elf, [(1, b"FuzzY"), (2, b"string")])
    # An ELF header whose section table ends at 64, then another ELF file.
    head = bytearray(elf)
    struct.pack_into("<Q", head, 0x28, 64)
    cut = bytes(head) + elf + bytes(80)
    return [full, bare, cut]


# cgofuzz_kind's order (include/cgofuzz/value.h).
KINDS = ["[]byte", "string", "bool", "int", "int8", "int16", "int32",
         "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32",
         "float64"]


def go118(types, data):
    """The harness's input: argument count, kinds, the reproducer."""
    t = [KINDS.index({"rune": "int32", "byte": "uint8"}.get(x, x))
         for x in types.split(",")]
    return bytes([len(t)] + t) + data


def be32(n):
    return struct.pack(">I", n & 0xffffffff)


def go118_seeds():
    multi = ("[]byte,string,int,bool,int8,uint16,rune,uint32,float32,"
             "float64,uint,int16,byte,int64,uint64")
    # The multi target's layout: length and bytes, length and string,
    # int (8 bytes and an order byte: even, little-endian), bool, int8,
    # uint16 (2 and order), rune and uint32 (4, big-endian), float32 (4 and
    # order; a NaN), float64 (a NaN), uint, int16, byte, int64, uint64.
    m = (be32(3) + b"\x00\xff\x10" + be32(2) + b"xy" +
         bytes(range(1, 9)) + b"\x02" + b"\x07" + b"\x80" + b"\x34\x12\x00" +
         b"\x00\x01\xf6\x00" + b"\xde\xad\xbe\xef" +
         struct.pack(">I", 0x7fc00001) + b"\x01" +
         struct.pack(">Q", 0xfff8000000000005) + b"\x03" +
         bytes(8) + b"\x01" + b"\xff\xfe\x01" + b"A" +
         struct.pack(">q", -2) + b"\x01" + struct.pack("<Q", 1 << 63) +
         b"\x00")
    return [go118("[]byte", be32(3) + b"abc"),
            go118("[]byte", be32(0) + b"A" * 40),
            go118("[]byte", be32(10) + b"abc"),
            go118("[]byte", b"abc"),
            go118(multi, m), go118(multi, m + b"trailing"),
            go118(multi, m[:40]),
            go118("string,int", be32(5) + b"hello" + bytes(9)),
            go118("string,int", be32(6) + b"hello")]


COVER_SET = b"""mode: set
ex.com/m/m.go:3.26,4.31 1 1
ex.com/m/m.go:4.31,6.3 1 0
ex.com/m/m.go:7.2,7.22 1 1
ex.com/m/m.go:7.22,8.13 1 1
ex.com/m/m.go:8.13,10.4 1 0
ex.com/m/m.go:12.2,12.10 1 1
"""
COVER_COUNT = b"""mode: count
ex.com/m/m.go:3.26,4.31 1 1
ex.com/m/m.go:4.31,6.3 1 0
ex.com/m/m.go:7.2,7.22 1 1
ex.com/m/m.go:7.22,8.13 1 2
ex.com/m/m.go:8.13,10.4 1 0
ex.com/m/m.go:12.2,12.10 1 1
"""
COVER_TWO = b"""mode: atomic
ex.com/m/sub/s.go:5.20,7.2 2 17
ex.com/m/m.go:7.22,8.13 1 184467440737095516150
ex.com/m/m.go:3.26,4.31 1 3
ex.com/m/sub/s.go:5.20,7.2 2 1
ex.com/m/m.go:12.2,12.10 1 0
"""


def gocover_seeds():
    return [COVER_SET, COVER_COUNT, COVER_TWO,
            COVER_SET.replace(b"\n", b"\r\n"),
            b"ex.com/m/m.go:3.26,4.31 1 1\nmode: set\n",
            b"mode: set\n"]  # a package with no statements


ELFREL_C = r"""
extern void hook(void);
int f(const char *p) { if (p[0] == 'x') hook(); return p[1] == 'y'; }
"""
ELFREL_GO = r"""
__attribute__((section(".go.fuzzcntrs"), used)) char counters[24];
__attribute__((section(".go.fuzzcntrs"), used)) char ecounters[0]
    __asm__("internal/fuzz._ecounters");
__attribute__((section(".go.fuzzcntrs"), used)) char estop[0]
    __asm__("runtime.__stop___sancov_cntrs");
"""


def elfrel_seeds():
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, src, flags in (
                ("c", ELFREL_C, ["-fsanitize-coverage=inline-8bit-counters"]),
                ("go", ELFREL_GO, [])):
            c, o = os.path.join(tmp, name + ".c"), os.path.join(tmp, name + ".o")
            with open(c, "w") as f:
                f.write(src)
            subprocess.check_call(["clang", "-O1", "-fno-asynchronous-unwind-"
                                   "tables", "-c", c, "-o", o] + flags)
            with open(o, "rb") as f:
                data = f.read()
            out += [data, data[:64], data[:len(data) // 2]]
            if name == "c":
                out.append(misaligned(data, b"__sancov_cntrs"))
    return out


def misaligned(obj, name):
    """obj with section name's alignment 3 (no power of two): refused by
    cgofuzz_elfrel_append_size, whose message once read the freed section
    table (found by this harness under ASan)."""
    o = bytearray(obj)
    shoff, = struct.unpack_from("<Q", o, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", o, 0x3c)
    stroff, = struct.unpack_from("<Q", o, shoff + shstrndx * 64 + 0x18)
    for i in range(shnum):
        h = shoff + i * 64
        n, = struct.unpack_from("<I", o, h)
        if o[stroff + n:stroff + n + len(name) + 1] == name + b"\0":
            struct.pack_into("<Q", o, h + 0x30, 3)
    return bytes(o)


HOOKS = ["runtime.libfuzzerTraceCmp%d" % n for n in (1, 2, 4, 8)] + \
    ["runtime.libfuzzerTraceConstCmp%d" % n for n in (1, 2, 4, 8)] + \
    ["runtime.libfuzzerHookStrCmp", "runtime.libfuzzerHookEqualFold"]


def cmppatch_seeds():
    body = "".join('.p2align 5\n.globl "%s"\n.type "%s",@function\n'
                   '"%s":\nret\n.fill 31,1,0xcc\n' % (h, h, h)
                   for h in HOOKS)
    src = ('__asm__(".text\\n%s");\n'
           '__attribute__((section(".go.fuzzcntrs"), used)) char cnt[64] '
           '__asm__("internal/fuzz._counters");\n'
           'void _start(void) { for (;;) ; }\n'
           % body.replace("\n", "\\n").replace('"', '\\"'))
    with tempfile.TemporaryDirectory() as tmp:
        c, exe = os.path.join(tmp, "t.c"), os.path.join(tmp, "t")
        with open(c, "w") as f:
            f.write(src)
        subprocess.check_call(
            ["clang", "-O1", "-nostdlib", "-static",
             "-fno-asynchronous-unwind-tables", "-Wl,--build-id=sha1",
             "-Wl,-z,norelro", "-Wl,-z,noseparate-code", c, "-o", exe])
        with open(exe, "rb") as f:
            e = f.read()
    bare = bytearray(e)
    struct.pack_into("<Q", bare, 0x28, 0)
    struct.pack_into("<HHH", bare, 0x3a, 0, 0, 0)
    return [e, bytes(bare), e[:64], e[:len(e) // 2]]


def main(which):
    if "cmppatch" in which:
        for data in cmppatch_seeds():
            write("cmppatch", data)
    if "elfrel" in which:
        for data in elfrel_seeds():
            write("elfrel", data)
    if "go118" in which:
        for data in go118_seeds():
            write("go118", data)
    if "gocover" in which:
        for data in gocover_seeds():
            write("gocover", data)
    if "launcher" in which:
        for data in launcher_seeds():
            write("launcher", data)
    if "objdump" in which:
        for data in (objdump_amd64(), objdump_arm64(),
                     REAL_OBJDUMP.encode()):
            write("objdump", data)
    if "obj" in which:
        for data in elf_seeds() + macho_seed():
            write("obj", data)
    if "merge" in which:
        for data in MERGE:
            write("merge", data)
    if "records" in which:
        for data in RECORDS:
            write("records", data)


if __name__ == "__main__":
    main(sys.argv[1:] or
         ["obj", "merge", "records", "objdump", "launcher", "go118",
          "gocover", "elfrel", "cmppatch"])
