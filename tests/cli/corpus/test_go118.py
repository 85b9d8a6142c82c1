"""`cgofuzz corpus convert -from go118` against go-118-fuzz-build itself.

OSS-Fuzz builds native Go fuzz targets with go-118-fuzz-build, whose
testing.F.Fuzz turns libFuzzer's bytes into arguments with go-fuzz-headers.
These cases run that real code (the pinned module versions of
go118mod/go.mod, which scripts/install-deps.sh downloads into the module
cache) on generated inputs, convert the same files with cgofuzz, replay the
converted `go test fuzz v1` files with plain `go test -run`, and require
the same arguments, value for value (floats by their bits), and the same
inputs rejected (go-118-fuzz-build never calls the target with them).
The module is used offline (GOPROXY=off): the cases skip, visibly, when
the modules are not in the cache.
"""
import os
import random
import re
import shutil
import struct

import pytest

import testlib

HERE = os.path.dirname(os.path.abspath(__file__))
MULTI_TYPES = ("[]byte,string,int,bool,int8,uint16,rune,uint32,float32,"
               "float64,uint,int16,byte,int64,uint64")
OFFLINE = {"GOPROXY": "off", "GOFLAGS": "-mod=mod", "GOSUMDB": "off",
           "GOTOOLCHAIN": "local"}


@pytest.fixture(scope="module")
def mod(tool, tmp_path_factory):
    """A copy of go118mod with its consumer built; skips without the
    modules in the cache."""
    go = tool("go")
    d = str(tmp_path_factory.mktemp("go118") / "mod")
    shutil.copytree(os.path.join(HERE, "go118mod"), d)
    r = testlib.run([go, "build", "-o", "consume.bin", "./consume"], d,
                    env=OFFLINE)
    if r.rc != 0:
        pytest.skip("go-118-fuzz-build and go-fuzz-headers (go118mod/go.mod) "
                    "are not in the Go module cache; scripts/install-deps.sh "
                    "downloads them\n%s" % r.stderr[-2000:])
    return go, d


def be32(n):
    return struct.pack(">I", n & 0xffffffff)


def ordered(rng, width):
    """width bytes, then the byte-order byte go-fuzz-headers reads after
    them (even: little-endian)."""
    return bytes(rng.randrange(256) for _ in range(width)) + \
        bytes([rng.randrange(256)])


def gen_multi(rng):
    """Bytes shaped like the multi target's arguments, often with lengths
    that wrap (0, == rest, > rest), sometimes cut short or with junk."""
    mode = rng.random()
    n = rng.randrange(1, 7)
    data = bytes(rng.randrange(256) for _ in range(n))
    if mode < 0.7:
        out = be32(n) + data                # the length it takes
    elif mode < 0.85:
        out = be32(0) + data                # 0: 30, modulo the rest
    else:
        out = be32(rng.randrange(1 << 32)) + data  # modulo the rest
    n = rng.randrange(0, 5)
    out += be32(n) + b"xyzw"[:n]            # string
    out += ordered(rng, 8)                               # int
    out += bytes([rng.randrange(256)])                   # bool
    out += bytes([rng.randrange(256)])                   # int8
    out += ordered(rng, 2)                               # uint16
    out += bytes(rng.randrange(256) for _ in range(4))   # rune (big-endian)
    out += bytes(rng.randrange(256) for _ in range(4))   # uint32
    nan32 = struct.pack(">I", 0x7fc00001)
    out += rng.choice([ordered(rng, 4), nan32 + b"\x01"])  # float32
    nan64 = struct.pack(">Q", 0xfff8000000000005)
    out += rng.choice([ordered(rng, 8), nan64 + b"\x03"])  # float64
    for width in (8, 2):                                 # uint, int16
        out += ordered(rng, width)
    out += bytes([rng.randrange(256)])                   # byte
    out += ordered(rng, 8) + ordered(rng, 8)             # int64, uint64
    cut = rng.random()
    if cut < 0.2:
        out = out[:rng.randrange(len(out))]
    elif cut < 0.4:
        out += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
    return out


def consume(mod, kind, files):
    go, d = mod
    r = testlib.run([os.path.join(d, "consume.bin"), kind] + files, d)
    assert r.rc == 0, r
    seen = {}
    for line in r.stdout.splitlines():
        name, _, rest = line.partition(" ")
        seen[name] = rest
    return seen


def replay(mod, target, cgofuzz, raw_files, types):
    """Converts each raw file into fz/testdata/fuzz/<target>, runs go test
    on them; {raw name: ARGS line or "not called"}."""
    go, d = mod
    outdir = os.path.join(d, "fz", "testdata", "fuzz", target)
    shutil.rmtree(outdir, ignore_errors=True)
    got, names = {}, {}
    for f in raw_files:
        r = testlib.run([cgofuzz, "corpus", "convert", "-from", "go118",
                         "-types", types, "-o", outdir, f])
        name = os.path.basename(f)
        if r.rc == 1:
            assert "go-118-fuzz-build would not call the target" in r.stderr, r
            got[name] = "not called"
            continue
        assert r.rc == 0, r
        # Inputs with the same values share one file.
        names.setdefault(os.path.basename(r.stdout.strip()), []).append(name)
    if names:
        r = testlib.run([go, "test", "-count=1", "-v", "-run", "^%s$" % target,
                         "."], os.path.join(d, "fz"), env=OFFLINE)
        assert r.rc == 0, r
        for m in re.finditer(r"^ARGS (\S+) (.*)$", r.stdout, re.M):
            for name in names[m.group(1)]:
                got[name] = m.group(2)
    return got


def write_inputs(tmp_path, blobs):
    d = tmp_path / "raw"
    d.mkdir()
    files = []
    for i, b in enumerate(blobs):
        p = d / ("in%03d" % i)
        p.write_bytes(b)
        files.append(str(p))
    return files


def test_multi_argument_target_decodes_as_go_118_fuzz_build(mod, cgofuzz,
                                                            tmp_path):
    rng = random.Random(118)
    blobs = [gen_multi(rng) for _ in range(40)]
    blobs += [b"", b"\x00\x00\x00\x00", b"\x00\x00\x00\x02ab"]
    files = write_inputs(tmp_path, blobs)
    want = consume(mod, "multi", files)
    got = replay(mod, "FuzzMulti", cgofuzz, files, MULTI_TYPES)
    assert len(want) == len(files)
    called = [n for n, v in want.items() if v != "not called"]
    # Both kinds of input occur, so both paths are checked.
    assert len(called) >= 10 and len(called) < len(files), want
    for name in sorted(want):
        assert got.get(name) == want[name], (name, want[name], got.get(name))


def test_bytes_target_reads_a_length_first(mod, cgofuzz, tmp_path):
    """A func(t, []byte) target does not get the raw bytes: a 4-byte length
    comes first (0 means 30, taken modulo what is left)."""
    rng = random.Random(7)
    blobs = [bytes(rng.randrange(256) for _ in range(rng.randrange(0, 40)))
             for _ in range(15)]
    blobs += [be32(0) + b"A" * 40, be32(3) + b"abc", be32(10) + b"abc",
              be32(0), b"abc"]
    files = write_inputs(tmp_path, blobs)
    want = consume(mod, "bytes", files)
    got = replay(mod, "FuzzBytes", cgofuzz, files, "[]byte")
    for name in sorted(want):
        assert got.get(name) == want[name], (name, want[name], got.get(name))
    # be32(3)+"abc": the length equals what is left, so all of it.
    assert want["in016"] == '[]uint8:"abc"', want
