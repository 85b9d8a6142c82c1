"""`cgofuzz compile-go-fuzzer` (the replacement of OSS-Fuzz's
compile_native_go_fuzzer), the launchers it writes, `cgofuzz corpus
convert`, and scripts/cflite_build.sh on the ClusterFuzzLite examples.

The package built is tests/cli/compile-go-fuzzer/gopkg (FuzzX([]byte), FuzzMulti([]byte,
int, string), FuzzSlow([]byte), FuzzTagged only with the gofuzz tag), copied to a temporary
directory first. The launcher's payload is parsed here from its documented
format (csrc/cli/golaunch.c), independently of the C reader. Each case has
its own TMPDIR, so the launchers' extraction cache starts empty.

Without go (or clang for the sanitizer and example cases) the cases skip,
naming the tool."""
import hashlib
import os
import re
import shutil
import stat
import struct

import pytest

import testlib

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.join(HERE, "gopkg")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
EXAMPLES = os.path.join(ROOT, "examples", "clusterfuzzlite")
CFLITE_BUILD = os.path.join(ROOT, "scripts", "cflite_build.sh")
IMPORT = "example.com/gofuzzertest"
MARKER = b"LLVMFuzzerTestOneInput"
HANG = 900  # hang guard of builds (an -asan build from a cold cache is slow)

TAG_TARGET, TAG_KINDS, TAG_SEED, TAG_FUZZER, TAG_PKG = 1, 2, 3, 4, 5


# -- helpers ------------------------------------------------------------------

def parse_launcher(path):
    """The payload of a launcher, read by the documented format: a dict
    with version, exe (the cgofuzz part), binary, records [(tag, bytes)],
    sha256 (of binary and metadata, from the trailer)."""
    with open(path, "rb") as f:
        d = f.read()
    t = d[-80:]
    assert t[64:] == b"cgofuzz-golaunch", "no trailer magic in %s" % path
    version, reserved, off, blen, mlen = struct.unpack_from("<IIQQQ", t)
    assert reserved == 0
    assert off + blen + mlen + 80 == len(d), "trailer lengths do not add up"
    payload = d[off:off + blen + mlen]
    assert hashlib.sha256(payload).digest() == t[32:64]
    meta = d[off + blen:off + blen + mlen]
    assert meta[:8] == b"CGFZMETA"
    records, i = [], 8
    while i < len(meta):
        tag, n = struct.unpack_from("<II", meta, i)
        records.append((tag, meta[i + 8:i + 8 + n]))
        i += 8 + n
    assert i == len(meta)
    return {"version": version, "exe": d[:off], "binary": d[off:off + blen],
            "records": records, "sha256": t[32:64]}


def record(p, tag):
    vals = [v for t, v in p["records"] if t == tag]
    assert len(vals) == 1, (tag, p["records"])
    return vals[0].decode()


def seeds(p):
    return [v for t, v in p["records"] if t == TAG_SEED]


def uvarint(n):
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


class Env:
    """A case's world: a copy of the package, $OUT, TMPDIR, and go on
    PATH."""

    def __init__(self, cgofuzz, go, tmp_path):
        self.cgofuzz, self.go = cgofuzz, go
        self.pkg = str(tmp_path / "gopkg")
        shutil.copytree(PKG, self.pkg)
        self.out = str(tmp_path / "out")
        os.makedirs(self.out)
        self.tmp = str(tmp_path / "tmp")
        os.makedirs(self.tmp)
        self.root = str(tmp_path)
        self.env = {"PATH": os.path.dirname(go) + os.pathsep +
                    os.environ.get("PATH", ""),
                    "OUT": self.out, "TMPDIR": self.tmp, "SANITIZER": None,
                    "CGOFUZZ_GO_ASAN": None}

    def run(self, args, cwd=None, env=None, timeout=HANG):
        e = dict(self.env)
        e.update(env or {})
        return testlib.run(args, cwd=cwd or self.pkg, env=e, timeout=timeout)

    def compile(self, pkg, func, name, *tags, cwd=None, env=None, rc=0):
        r = self.run([self.cgofuzz, "compile-go-fuzzer", pkg, func, name] +
                     list(tags), cwd=cwd, env=env)
        if rc is not None:
            assert r.rc == rc, r
        return r

    def convert(self, *args, cwd=None, rc=0):
        r = self.run([self.cgofuzz, "corpus", "convert"] + list(args),
                     cwd=cwd)
        if rc is not None:
            assert r.rc == rc, r
        return r


@pytest.fixture
def w(cgofuzz, tool, tmp_path):
    return Env(cgofuzz, tool("go"), tmp_path)


@pytest.fixture
def built(w):
    """w with $OUT/x_fuzzer (FuzzX, PKG given as a directory) and
    $OUT/multi_fuzzer (FuzzMulti, as an import path)."""
    w.compile(w.pkg, "FuzzX", "x_fuzzer")
    w.compile(IMPORT, "FuzzMulti", "multi_fuzzer")
    w.x = os.path.join(w.out, "x_fuzzer")
    w.multi = os.path.join(w.out, "multi_fuzzer")
    return w


# -- compile-go-fuzzer ---------------------------------------------------------

def test_writes_a_fuzz_target(built, cgofuzz):
    st = os.stat(built.x)
    assert stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o755
    # What ClusterFuzz's is_fuzz_target_local looks for.
    assert re.match(r"^[a-zA-Z0-9_-]+$", os.path.basename(built.x))
    with open(built.x, "rb") as f:
        assert MARKER in f.read()
    p = parse_launcher(built.x)
    assert p["version"] == 1
    with open(cgofuzz, "rb") as f:
        assert p["exe"] == f.read(), "the launcher is not cgofuzz + payload"
    assert p["binary"][:4] == b"\x7fELF"


def test_payload_round_trips(built):
    p = parse_launcher(built.x)
    assert record(p, TAG_TARGET) == "FuzzX"
    assert record(p, TAG_KINDS) == "[]byte"
    assert record(p, TAG_FUZZER) == "x_fuzzer"
    assert record(p, TAG_PKG) == IMPORT
    with open(os.path.join(PKG, "testdata/fuzz/FuzzX/testdata_seed"),
              "rb") as f:
        td = f.read()
    # The f.Add seeds in order (as Go encodes them), then testdata.
    assert seeds(p) == [b'go test fuzz v1\n[]byte("hello")\n',
                        b'go test fuzz v1\n[]byte("\\x00\\x01\\x02")\n', td]
    # The test binary is the one go test -c builds, byte for byte.
    sep = os.path.join(built.root, "sep.test")
    r = built.run([built.go, "test", "-c", "-fuzz=^FuzzX$", "-tags",
                   "gofuzz", "-o", sep, "."])
    assert r.rc == 0, r
    with open(sep, "rb") as f:
        assert p["binary"] == f.read()
    # Go's command line runs the test binary itself (extracted once to
    # TMPDIR/cgofuzz-go/<sha256 prefix>/NAME.test).
    r = built.run([built.x, "-test.list=.*"], cwd=built.root)
    assert r.rc == 0, r
    assert set(r.stdout.split()) == {"TestPlain", "FuzzX", "FuzzMulti",
                                     "FuzzSlow", "FuzzTagged"}, r
    cached = os.path.join(built.tmp, "cgofuzz-go", p["sha256"].hex()[:16],
                          "x_fuzzer.test")
    with open(cached, "rb") as f:
        assert f.read() == p["binary"]
    assert os.access(cached, os.X_OK)
    # Reused, not rewritten, by the next start.
    ino = os.stat(cached).st_ino
    r = built.run([built.x, "-test.list=FuzzX"], cwd=built.root)
    assert r.rc == 0 and r.stdout.split() == ["FuzzX"], r
    assert os.stat(cached).st_ino == ino


def test_multi_argument_target(built):
    p = parse_launcher(built.multi)
    assert record(p, TAG_TARGET) == "FuzzMulti"
    assert record(p, TAG_KINDS) == "[]byte,int,string"
    assert seeds(p) == [
        b'go test fuzz v1\n[]byte("abc")\nint(7)\nstring("seven")\n']


def test_tags(w):
    # Default tags: gofuzz, as OSS-Fuzz builds Go fuzzers.
    w.compile(".", "FuzzTagged", "tagged")
    p = parse_launcher(os.path.join(w.out, "tagged"))
    assert record(p, TAG_KINDS) == "string,bool"
    # TAGS replaces them.
    r = w.compile(".", "FuzzTagged", "tagged2", "othertag", rc=2)
    assert "Could not find the function: func FuzzTagged(f *testing.F)" \
        in r.stderr, r
    assert not os.path.exists(os.path.join(w.out, "tagged2"))


def test_errors(w, tmp_path):
    cmd = [w.cgofuzz, "compile-go-fuzzer"]
    r = w.run(cmd + [".", "FuzzX", "x"], env={"OUT": None})
    assert r.rc == 2 and "$OUT is not set" in r.stderr, r
    r = w.run(cmd + [".", "FuzzX", "x"], env={"OUT": str(tmp_path / "nope")})
    assert r.rc == 2 and "is not a directory" in r.stderr, r
    r = w.compile(".", "FuzzNope", "x", rc=2)
    assert "Could not find the function: func FuzzNope(f *testing.F)" \
        in r.stderr, r
    r = w.compile("example.com/nosuchpkg", "FuzzX", "x", rc=2)
    assert "cannot find the Go package example.com/nosuchpkg" in r.stderr, r
    r = w.compile("./nosuchdir", "FuzzX", "x", rc=2)
    assert "cannot find the Go package ./nosuchdir" in r.stderr, r
    r = w.compile(".", "FuzzX", "x.bin", rc=2)
    assert "without an extension" in r.stderr, r
    r = w.compile(".", "TestPlain", "x", rc=2)
    assert "not a fuzz target name" in r.stderr, r
    r = w.run(cmd + [".", "FuzzX"])
    assert r.rc == 2 and "usage:" in r.stderr, r
    # A package that does not compile: go's own errors, exit 1.
    testlib.write(os.path.join(w.pkg, "broken_test.go"),
                  "package gofuzzertest\n\nfunc broken( {\n")
    r = w.compile(".", "FuzzX", "x", rc=1)
    assert "go test -c failed" in r.stderr and "broken_test.go" in r.stderr, r
    os.remove(os.path.join(w.pkg, "broken_test.go"))
    # A testdata file that does not fit the target (go test fails too).
    testlib.write(os.path.join(w.pkg, "testdata/fuzz/FuzzX/bad"),
                  "go test fuzz v1\nint(1)\n")
    r = w.compile(".", "FuzzX", "x", rc=1)
    assert "testdata/fuzz/FuzzX/bad" in r.stderr, r
    assert os.listdir(w.out) == []


def test_malformed_launcher(built):
    with open(built.x, "rb") as f:
        good = f.read()
    p = parse_launcher(built.x)
    bad = os.path.join(built.root, "bad_fuzzer")

    def check(data, why, convert=True):
        with open(bad, "wb") as f:
            f.write(data)
        os.chmod(bad, 0o755)
        r = built.run([bad, "-runs=1", built.root], cwd=built.root)
        assert r.rc == 1, r
        assert "%s: malformed Go fuzz target launcher" % bad in r.stderr, r
        assert why in r.stderr, r
        if convert:  # (convert reads the metadata only)
            r = built.convert("-launcher", bad, "-o", built.root, bad, rc=2)
            assert "malformed Go fuzz target launcher" in r.stderr, r

    check(good[:-10], "does not end with a payload trailer")
    check(good + b"x", "does not end with a payload trailer")
    # A payload whose bytes changed: found when extracting.
    off = len(p["exe"]) + 1000
    check(good[:off] + bytes([good[off] ^ 1]) + good[off + 1:],
          "sha256 does not match", convert=False)
    t = bytearray(good[-80:])
    t[0] = 9
    with open(bad, "wb") as f:
        f.write(good[:-80] + bytes(t))
    r = built.run([bad, "x"], cwd=built.root)
    assert r.rc == 1 and "payload version 9" in r.stderr, r


# -- corpus convert -----------------------------------------------------------

def go_test_run(w, target, name):
    return w.run([w.go, "test", "-run=%s/%s" % (target, name), "."])


def test_convert_round_trip_and_go_test(built):
    raws = os.path.join(built.root, "raws")
    os.makedirs(raws)
    crash = os.path.join(raws, "crash")
    with open(crash, "wb") as f:
        f.write(b"CRASH\x00\xff\n\"tail")
    fine = os.path.join(raws, "fine")
    with open(fine, "wb") as f:
        f.write(b"no crash here")
    # -to go: by default into testdata/fuzz/<Target> of the directory run
    # in, named as Go names corpus entries.
    r = built.convert("-launcher", built.x, crash, fine)
    written = r.stdout.split()
    assert len(written) == 2, r
    body = b'go test fuzz v1\n[]byte("CRASH\\x00\\xff\\n\\"tail")\n'
    name = hashlib.sha256(body).hexdigest()[:16]
    assert written[0] == "testdata/fuzz/FuzzX/" + name
    with open(os.path.join(built.pkg, written[0]), "rb") as f:
        assert f.read() == body
    # Plain go test replays them: the crashing one fails, the other passes.
    r = go_test_run(built, "FuzzX", name)
    assert r.rc == 1 and "planted crash in FuzzX" in r.out, r
    r = go_test_run(built, "FuzzX", os.path.basename(written[1]))
    assert r.rc == 0, r
    # And back: the same bytes, named by their sha1 as libFuzzer does.
    back = os.path.join(built.root, "back")
    r = built.convert("-to", "raw", "-launcher", built.x, "-o", back,
                      *[os.path.join(built.pkg, p) for p in written])
    for src, path in zip([crash, fine], r.stdout.split()):
        with open(src, "rb") as a, open(path, "rb") as b:
            data = a.read()
            assert b.read() == data
        assert os.path.basename(path) == hashlib.sha1(data).hexdigest()


def test_convert_multi_argument(built):
    raw = uvarint(2) + b"ab" + struct.pack("<q", 31337) + b"boom"
    src = os.path.join(built.root, "multi_crash")
    with open(src, "wb") as f:
        f.write(raw)
    body = (b'go test fuzz v1\n[]byte("ab")\nint(31337)\n'
            b'string("boom")\n')
    # From the launcher's payload, or from -types and -target: same file.
    r1 = built.convert("-launcher", built.multi, src)
    r2 = built.convert("-types", "[]byte, int, string", "-target",
                       "FuzzMulti", src)
    assert r1.stdout == r2.stdout
    path = os.path.join(built.pkg, r1.stdout.strip())
    with open(path, "rb") as f:
        assert f.read() == body
    r = go_test_run(built, "FuzzMulti", os.path.basename(path))
    assert r.rc == 1 and "planted crash in FuzzMulti" in r.out, r
    back = os.path.join(built.root, "back")
    r = built.convert("-to", "raw", "-types", "[]byte,int,string", "-o",
                      back, path)
    with open(r.stdout.strip(), "rb") as f:
        assert f.read() == raw
    # Bytes that do not reach the arguments are dropped, with a note.
    short = os.path.join(built.root, "short")
    with open(short, "wb") as f:
        f.write(b"\x05ab")  # a length the input does not have
    r = built.convert("-types", "[]byte,int,string", "-o", back, short)
    assert "note:" in r.stderr, r


def test_convert_errors(built, cgofuzz):
    f = os.path.join(built.root, "raw")
    with open(f, "wb") as h:
        h.write(b"raw bytes")
    r = built.convert(f, rc=2)
    assert "give one of -launcher and -types" in r.stderr, r
    r = built.convert("-launcher", built.x, "-types", "int", f, rc=2)
    r = built.convert("-launcher", cgofuzz, f, rc=2)
    assert "not a Go fuzz target launcher" in r.stderr, r
    r = built.convert("-to", "raw", "-launcher", built.x, "-o",
                      built.root, f, rc=2)
    assert "not a \"go test fuzz v1\" file" in r.stderr, r
    r = built.convert("-to", "raw", "-launcher", built.x, f, rc=2)
    assert "-o is required" in r.stderr, r
    r = built.convert("-types", "int", f, rc=2)
    assert "-o is required" in r.stderr, r
    r = built.convert("-types", "int,complex128", "-o", built.root, f, rc=2)
    assert "complex128" in r.stderr, r
    r = built.convert("-to", "json", "-types", "int", f, rc=2)
    # A corpus file of other kinds than the target's.
    g = os.path.join(built.root, "gofile")
    testlib.write(g, "go test fuzz v1\nint(1)\n")
    r = built.convert("-to", "raw", "-launcher", built.x, "-o", built.root,
                      g, rc=2)
    assert g in r.stderr, r


# -- the launcher, through libFuzzer's command line ---------------------------

def test_launcher_fuzzes_and_reproduces(built):
    # FuzzTagged has no bug (FuzzX's is found within 1000 runs: the test
    # below).
    built.compile(built.pkg, "FuzzTagged", "tagged_fuzzer")
    corpus = os.path.join(built.root, "corpus")
    os.makedirs(corpus)
    r = built.run([os.path.join(built.out, "tagged_fuzzer"), "-runs=1000",
                   corpus], cwd=built.root)
    assert r.rc == 0, r
    assert "DONE" in r.stderr or "Done" in r.stderr, r
    crash = os.path.join(built.root, "crash")
    with open(crash, "wb") as f:
        f.write(b"CRASH!")
    r = built.run([built.x, crash], cwd=built.root)
    assert r.rc not in (0, None), r
    assert "planted crash in FuzzX" in r.out, r
    mcrash = os.path.join(built.root, "mcrash")
    with open(mcrash, "wb") as f:
        f.write(uvarint(2) + b"ab" + struct.pack("<q", 31337) + b"boom")
    r = built.run([built.multi, mcrash], cwd=built.root)
    assert r.rc not in (0, None), r
    assert "planted crash in FuzzMulti" in r.out, r
    # A corpus file in Go's format is taken as it is.
    gofile = os.path.join(built.root, "gocrash")
    testlib.write(gofile, 'go test fuzz v1\n[]byte("CRASH go")\n')
    r = built.run([built.x, gofile], cwd=built.root)
    assert r.rc not in (0, None) and "planted crash in FuzzX" in r.out, r


def test_launcher_has_the_dictionary_and_comparison_feedback(built):
    """Under libFuzzer's command line a Go target keeps what cgofuzz fuzz
    gives it: the constants of its code and -dict in the coordinator's
    dictionary, and run-time comparison feedback. FuzzMulti's crash
    (n == 31337, s == "boom"), which blind fuzzing does not reach, is found
    within -runs=300000 (well under a second). A malformed -dict is an
    error, as in libFuzzer."""
    corpus = os.path.join(built.root, "corpus")
    os.makedirs(corpus)
    art = os.path.join(built.root, "art")
    os.makedirs(art)
    r = built.run([built.multi, "-seed=1", "-runs=300000",
                   "-artifact_prefix=%s/" % art, corpus], cwd=built.root)
    assert r.rc not in (0, None), r
    assert "planted crash in FuzzMulti" in r.out, r
    assert any(n.startswith("crash-") for n in os.listdir(art)), r
    bad = os.path.join(built.root, "bad.dict")
    with open(bad, "w") as f:
        f.write('kw = "unterminated\n')
    r = built.run([built.x, "-dict=" + bad, "-runs=10", corpus],
                  cwd=built.root)
    assert r.rc == 1 and "ParseDictionaryFile" in r.out, r


@pytest.mark.parametrize("seed", [b"SLOW", b"SLOX"])
def test_launcher_reports_slow_units(built, seed):
    """-report_slow_units=1 for a Go target: FuzzSlow's input "SLOW" runs
    1.2 s and is reported as libFuzzer reports a slow unit (as tests/lf/libfuzzer
    checks for C targets against libFuzzer itself): "Slowest unit: 1 s:"
    once, slow-unit-<sha1> holding the raw input, and
    slowest_unit_time_sec 1, whether it is the starting input (SLOW) or
    found by fuzzing (from SLOX: the code's constant is in the Go target's
    dictionary). With the default threshold (10 s): nothing, and 0."""
    built.compile(built.pkg, "FuzzSlow", "slow_fuzzer")
    exe = os.path.join(built.out, "slow_fuzzer")
    for flag, want in (("-report_slow_units=1", 1), (None, 0)):
        d = os.path.join(built.root, flag or "default")
        art, corpus = os.path.join(d, "art"), os.path.join(d, "corpus")
        os.makedirs(art)
        os.makedirs(corpus)
        with open(os.path.join(corpus, "seed"), "wb") as f:
            f.write(seed)
        r = built.run([exe, "-seed=1", "-runs=20000", "-print_final_stats=1",
                       "-artifact_prefix=%s/" % art, corpus] +
                      ([flag] if flag else []), cwd=built.root)
        assert r.rc == 0, r
        assert ("stat::slowest_unit_time_sec:    %d\n" % want) in r.stderr, r
        slow = sorted(os.listdir(art))
        if not want:
            assert "Slowest unit" not in r.stderr and slow == [], r
            continue
        assert r.stderr.count("Slowest unit: 1 s:\n") == 1, r
        name = "slow-unit-" + hashlib.sha1(b"SLOW").hexdigest()
        assert slow == [name], (slow, r)
        with open(os.path.join(art, name), "rb") as f:
            assert f.read() == b"SLOW"


# -- sanitizers and the ClusterFuzzLite examples ------------------------------

def record_overflow():
    """An input of examples/.../cgo-package whose payload overflows the C
    buffer of 16 bytes."""
    return b"R\x20" + b"A" * 32


def test_cgo_asan_c_only(w, tool):
    """CGOFUZZ_GO_ASAN=cgo: only the C code has ASan (no go test -asan)."""
    tool("clang")
    pkg = os.path.join(w.root, "cgo-package")
    shutil.copytree(os.path.join(EXAMPLES, "cgo-package"), pkg)
    r = w.compile(pkg, "FuzzParseRecord", "rec_fuzzer",
                  env={"SANITIZER": "address", "CGOFUZZ_GO_ASAN": "cgo"})
    assert "C code only" in r.stderr, r
    crash = os.path.join(w.root, "crash")
    with open(crash, "wb") as f:
        f.write(record_overflow())
    r = w.run([os.path.join(w.out, "rec_fuzzer"), crash], cwd=w.root)
    assert r.rc not in (0, None), r
    assert "AddressSanitizer: heap-buffer-overflow" in r.out, r
    # Without a sanitizer the overflow goes unseen.
    w.compile(pkg, "FuzzParseRecord", "plain_fuzzer")
    r = w.run([os.path.join(w.out, "plain_fuzzer"), crash], cwd=w.root)
    assert "AddressSanitizer" not in r.out, r


def test_cflite_build_examples(w, tool, cgofuzz):
    """scripts/cflite_build.sh runs each example's build.sh as
    base-builder would (SANITIZER=address, libFuzzer flags); the targets
    it leaves in $OUT are fuzz targets and report the planted bugs."""
    tool("clang")
    out = os.path.join(w.root, "cflite_out")
    env = {"CGOFUZZ_BIN": os.path.dirname(cgofuzz), "OUT": None,
           "CXXFLAGS_EXTRA": ""}
    for ex in ("cgo-package", "c-library"):
        r = w.run([CFLITE_BUILD, os.path.join(EXAMPLES, ex), out],
                  cwd=w.root, env=env)
        assert r.rc == 0, r
    targets = {"parse_record_fuzzer": record_overflow(),
               "tlv_fuzzer": b"X\x10" + b"B" * 16}
    assert sorted(os.listdir(out)) == sorted(targets)
    for name, crash in targets.items():
        path = os.path.join(out, name)
        assert os.access(path, os.X_OK)
        with open(path, "rb") as f:
            assert MARKER in f.read()
        cf = os.path.join(w.root, name + ".crash")
        with open(cf, "wb") as f:
            f.write(crash)
        r = w.run([path, cf], cwd=w.root)
        assert r.rc not in (0, None), r
        assert "AddressSanitizer: heap-buffer-overflow" in r.out, r
    # The Go target was built with go test -asan.
    p = parse_launcher(os.path.join(out, "parse_record_fuzzer"))
    assert "go test -asan" in record(p, 6)


# -- SANITIZER=coverage ---------------------------------------------------------

def coverage_run(w, corpus, profile):
    """OSS-Fuzz's base-runner coverage script's run of a Go target
    (run_go_fuzz_target): FUZZ_CORPUS_DIR with a trailing slash, the
    profile as a separate argument, run from $OUT."""
    return w.run([os.path.join(w.out, "x_fuzzer"), "-test.coverprofile",
                  profile], cwd=w.out,
                 env={"FUZZ_CORPUS_DIR": corpus + os.sep})


def profile_blocks(path):
    """{block: count} of a Go coverage profile; its mode line first."""
    with open(path) as f:
        lines = f.read().splitlines()
    assert lines[0] == "mode: set", lines[:1]
    return {ln.rsplit(" ", 1)[0]: int(ln.rsplit(" ", 1)[1])
            for ln in lines[1:]}


def test_coverage_build_writes_a_go_profile(w):
    """SANITIZER=coverage: the launcher's test binary is built with -cover
    over the package's module, $OUT/NAME.gocovpath maps the module's path
    to its directory (the coverage script's sed), and a run as the script
    makes it writes a Go profile of the corpus (raw libFuzzer files and Go
    corpus files alike) that `go tool cover` reads. The panicking block is
    covered only when an input reaches it; an input that panics costs only
    its own coverage (each input is then run alone and the profiles
    merged)."""
    r = w.compile(w.pkg, "FuzzX", "x_fuzzer", env={"SANITIZER": "coverage"})
    assert "-cover -coverpkg=%s/..." % IMPORT in r.stderr, r
    with open(os.path.join(w.out, "x_fuzzer.gocovpath")) as f:
        assert f.read() == "s=%s=%s=\n" % (IMPORT, w.pkg)
    with open(os.path.join(w.out, "x_fuzzer"), "rb") as f:
        assert b"FUZZ_CORPUS_DIR" in f.read()  # the script greps for it
    corpus = os.path.join(w.root, "corpus")
    os.makedirs(corpus)
    with open(os.path.join(corpus, "raw"), "wb") as f:
        f.write(b"CRAS")
    with open(os.path.join(corpus, "gofile"), "wb") as f:
        f.write(b'go test fuzz v1\n[]byte("nothing")\n')
    r = coverage_run(w, corpus, "dumps.profdata")
    assert r.rc == 0 and "coverage: 25.0% of statements" in r.out, r
    prof = os.path.join(w.out, "dumps.profdata")
    blocks = profile_blocks(prof)
    panic_line = IMPORT + "/target.go:10.44,11.34 1"
    assert blocks[IMPORT + "/target.go:9.25,10.44 1"] == 1, blocks
    assert blocks[panic_line] == 0, blocks
    rr = w.run([w.go, "tool", "cover", "-func=" + prof])
    assert rr.rc == 0 and "Check" in rr.out, rr
    # An input that panics: the others' coverage is still written.
    with open(os.path.join(corpus, "crash"), "wb") as f:
        f.write(b"CRASH!")
    r = coverage_run(w, corpus, "dumps2.profdata")
    assert r.rc != 0 and "running the 6 inputs one at a time" in r.stderr, r
    assert "those that panicked are not in it" in r.stderr, r
    blocks2 = profile_blocks(os.path.join(w.out, "dumps2.profdata"))
    assert blocks2 == blocks, (blocks2, blocks)
    # Nothing of ours is left in $TMPDIR but the extracted test binary.
    assert sorted(os.listdir(w.tmp)) == ["cgofuzz-go"], os.listdir(w.tmp)
