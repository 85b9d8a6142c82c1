"""Run-time comparison feedback of `cgofuzz fuzz` for unmodified Go test
binaries (docs/comparisons.md, csrc/feedback/fb_cmp.c).

tests/coord/gocmp/target is built with `go test -c -fuzz=.` by the installed Go
and, where their toolchains are in the module cache, by go1.18.10 and
go1.22.12 (scripts/install-deps.sh fetches them; a missing one is a visible
skip). The cases check that the operands of every hook kind reach the
coordinator ($CGOFUZZ_CMP_DUMP), that gates only the operands open are
found with the static dictionary off (-autodict=false) and not without the
feedback, that the failing input reproduces with the user's own binary
(which is never written), and that a binary that cannot be patched gets a
one-line note and is fuzzed as before. Each case fuzzes in its own copy of
the package with its own cache and $TMPDIR, under a pinned fuzzseed and an
exec budget.
"""
import ast
import hashlib
import os
import re
import shutil
import uuid

import pytest

import testlib
from testlib import read, run

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "target")
SEED = 1
BUDGET = "-fuzztime=200000x"
NOTE = re.compile(r"^cgofuzz: no run-time comparison feedback for \S+ \((.+)\); "
                  r"using the static dictionary only$", re.M)


def release_env(release):
    if release == "installed":
        return {}
    # GOPROXY=off: the toolchain must already be in the module cache.
    return {"GOTOOLCHAIN": release, "GOFLAGS": "-mod=mod", "GOPROXY": "off"}


def build(go, tmp_path_factory, release="installed", flags=()):
    """(package copy, test binary) built by release with extra go flags."""
    env = testlib.environ(release_env(release))
    if release != "installed":
        r = run([go, "env", "GOROOT"], "/", env)
        if r.rc != 0:
            pytest.skip("%s is not in the module cache (GOTOOLCHAIN=%s go "
                        "version fetches it)" % (release, release))
    d = tmp_path_factory.mktemp("gocmp-" + release)
    pkg = str(d / "gocmp")
    shutil.copytree(SRC, pkg)
    exe = str(d / "gocmp.test")
    r = run([go, "test", "-c", "-fuzz=.", "-o", exe] + list(flags) + ["."],
            pkg, env)
    assert r.rc == 0, "go test -c failed\n%s" % r
    return pkg, exe


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


@pytest.fixture(scope="session")
def binary(go, tmp_path_factory):
    return build(go, tmp_path_factory)[1]


class Case:
    def __init__(self, cgofuzz, go, binary, tmp):
        self.cgofuzz, self.go, self.binary, self.tmp = cgofuzz, go, binary, tmp
        self.pkg = os.path.join(tmp, "gocmp")
        shutil.copytree(SRC, self.pkg)
        self.cache = os.path.join(tmp, "cache")
        self.tmpdir = os.path.join(tmp, "tmp")
        os.makedirs(self.tmpdir)
        self.env = testlib.fuzz_env(SEED, TMPDIR=self.tmpdir)

    def fuzz(self, target, *extra, binary=None, env=None, parallel=2):
        e = dict(self.env)
        e.update(env or {})
        cmd = testlib.fuzz_cmd(self.cgofuzz, binary or self.binary, target,
                               self.cache, extra, parallel=parallel)
        return run(cmd, self.pkg, e)


@pytest.fixture
def case(cgofuzz, go, binary, tmp_path):
    return Case(cgofuzz, go, binary, str(tmp_path))


def records(path):
    """The records of a $CGOFUZZ_CMP_DUMP file: (kind, a0, a1), integers
    as ints, strings as bytes."""
    out = []
    for line in read(path).splitlines():
        m = re.match(r"kind=(0x[0-9a-f]+|0) pc=[0-9a-f]{8} (.*)$", line)
        if not m:
            continue
        kind, rest = int(m.group(1), 16), m.group(2)
        m = re.match(r"a0=([0-9a-f]{16}) a1=([0-9a-f]{16})$", rest)
        if m:
            w = kind & 0xf
            mask = (1 << (8 * w)) - 1
            out.append((kind, int(m.group(1), 16) & mask,
                        int(m.group(2), 16) & mask))
            continue
        m = re.match(r"s0=([0-9a-f]*)/(\d+) s1=([0-9a-f]*)/(\d+)$", rest)
        assert m, line
        out.append((kind, bytes.fromhex(m.group(1)), bytes.fromhex(m.group(3))))
    return out


CONST, STR, FOLD = 0x10, 0x20, 0x40
# What Hooks compares for the seed ("ABCDEFGH", "hello", 5, 0x1234,
# 0x11223344, 0x42): (kind, {operands}); a constant comparison has the
# constant first.
WANT_INTS = [
    (CONST | 1, (0xa5, 0x42)),
    (CONST | 2, (0xbeef, 0x1234)),
    (CONST | 4, (0xcafebabe, 0x11223344)),
    (CONST | 8, (0x1122334455667788, 5)),
    (4, {0x44434241, 0x11223344}),
    (1, {0x41, 0x42}),
    (2, {5, 0x1234}),
    (8, {0x11223344, 5}),
]
WANT_STRS = [
    (STR, {b"hello", b"open-sesame"}),
    (FOLD, {b"hello", b"Hello-World"}),
]


@pytest.mark.parametrize("release,strip", [
    ("go1.18.10", False), ("go1.18.10", True), ("go1.22.12", False),
    ("installed", False), ("installed", True)])
def test_operands_of_each_hook_reach_the_coordinator(cgofuzz, go, release,
                                                     strip, tmp_path_factory,
                                                     tmp_path):
    """Every hook kind of a real `go test -c -fuzz` binary, built by each
    release, reports its operands for the seed (the string hooks exist from
    go1.19; go1.18 binaries are patched without them). A stripped binary
    (as go test links them under -exec) is patched too: its hooks are found
    in Go's own function table. A trace starts at the fuzz function's
    call (its site found in every one)."""
    pkg, exe = build(go, tmp_path_factory, release,
                     ["-ldflags=-s -w"] if strip else [])
    c = Case(cgofuzz, go, exe, str(tmp_path))
    dump = str(tmp_path / "dump.txt")
    r = c.fuzz("FuzzHooks", "-fuzztime=100x", "-v", "-autodict=false",
               env={"CGOFUZZ_CMP_DUMP": dump}, parallel=1)
    assert r.rc == 0, str(r)
    hooks = "8 hooks" if release == "go1.18.10" else "10 hooks"
    assert "run-time comparison feedback: %s patched" % hooks in r.stderr, \
        str(r)
    # The fuzz function's call was found: traces start there, without the
    # worker's decoding of the input.
    assert "decoding traced too" not in r.stderr, str(r)
    recs = records(dump)
    assert recs, str(r)
    for kind, ops in WANT_INTS:
        got = [(a, b) for k, a, b in recs if k == kind]
        if isinstance(ops, tuple):
            assert ops in got, "%#x %r not in %r" % (kind, ops, got[:20])
        else:
            assert any({a, b} == ops for a, b in got), \
                "%#x %r not in %r" % (kind, ops, got[:20])
    for kind, ops in WANT_STRS:
        got = [{a, b} for k, a, b in recs if k == kind]
        if release == "go1.18.10":
            assert not got
        else:
            assert ops in got, "%#x %r not in %r" % (kind, ops, got[:20])


def found(c, target, msg, *extra):
    """Fuzzes target, checks it failed with msg, that -v says a
    comparison-feedback candidate found it, and that plain go test
    reproduces the written input. Returns the input's file content."""
    r = c.fuzz(target, BUDGET, "-v", *extra)
    assert r.rc == 1 and msg in r.stdout, "%s: not found\n%s" % (target, r)
    assert "comparison-feedback candidate" in r.stderr, str(r)
    m = re.search(r"Failing input written to (testdata/fuzz/%s/(\w+))"
                  % target, r.stdout)
    assert m, str(r)
    rr = run([c.go, "test", "-timeout=60s",
              "-run=%s/%s" % (target, m.group(2))], c.pkg)
    assert rr.rc == 1 and msg in rr.out, \
        "go test does not reproduce %s\n%s\n%s" % (m.group(1), rr, r)
    return read(os.path.join(c.pkg, m.group(1)))


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_byte_loop_found_and_reproduced_with_users_binary(case):
    """An 8-byte key compared byte by byte: the tracing worker follows the
    loop one byte per run; the candidate is run, fails and is minimized by
    the user's own workers, go test reproduces it, and the user's binary
    is unchanged."""
    before = sha256(case.binary)
    data = found(case, "FuzzLoopKey", "gocmp: loop key matched",
                 "-autodict=false")
    assert data == 'go test fuzz v1\n[]byte("Kx7#qZ2m")\n', data
    assert sha256(case.binary) == before


def test_parsed_number_found(case):
    """strconv.Atoi then a constant: the decimal in the input is
    replaced."""
    data = found(case, "FuzzAtoi", "gocmp: length matched", "-autodict=false")
    assert data == 'go test fuzz v1\nstring("len=31337")\n', data


def test_unrolled_magic_found_in_a_few_thousand_execs(case):
    """A 5-byte magic as one && chain of byte comparisons (gocmp.IsClass):
    the later bytes are tested without branches, so a candidate that sets
    one of them is no new coverage; the consecutive constant byte records
    of one trace, set together, are (fb_i2s.c run_end). 20,000 execs: a
    tenth of what the engine took without that (70k-228k on the same shape
    in bench/cmpgates' FuzzUnrolled)."""
    r = case.fuzz("FuzzUnrolled", "-fuzztime=20000x", "-v",
                  "-autodict=false")
    assert r.rc == 1 and "gocmp: unrolled magic matched" in r.stdout, str(r)
    m = re.search(r"Failing input written to (testdata/fuzz/FuzzUnrolled/\w+)",
                  r.stdout)
    assert m, str(r)
    data = read(os.path.join(case.pkg, m.group(1)))
    assert data.startswith('go test fuzz v1\n[]byte("\\xca\\xfe\\xba\\xbeA'), \
        data


def test_switch_on_a_tag_byte_set_to_another_case(case):
    """A record's tag byte switched on (gocmp.Dispatch, x/crypto ssh/agent's
    GO-2025-4135 in small): the seed's tags are 'p' and 'z', the bug is the
    case '0', which Go's mutator seldom writes. The constant comparisons
    of one byte value at the switch's sites make candidates with that byte
    set to each case (fb_i2s.c switch_cases), run from a ring of their own
    oldest first (fb_cmp.c queue_case): found in 1,000 execs, where the
    engine without them took 1.7k-54k on seeds 1-5."""
    r = case.fuzz("FuzzDispatch", "-fuzztime=1000x", "-v", "-autodict=false")
    assert r.rc == 1 and "index out of range [3]" in r.stdout, str(r)
    m = re.search(r"Failing input written to (testdata/fuzz/FuzzDispatch/\w+)",
                  r.stdout)
    assert m, str(r)
    data = read(os.path.join(case.pkg, m.group(1)))
    assert "0\\x0" in data, data  # a record of tag '0', its body short


def test_cut_record_found_from_a_mutants_trace(case):
    """A record cut to 20-40 bytes whose two sizes are mended (libwebp's
    oss-fuzz:9100 shape, gocmp.RecordTail): no cut is new coverage (the
    seeds took each failing path), so only a traced mutant (a prefix of the
    64-byte seed) shows the length its size plus 8 is compared with, an
    arithmetic candidate sets the field to the length less 8, and only the
    trace of that candidate shows the chunk's size. The failing input is
    such a record, and plain go test reproduces it."""
    data = found(case, "FuzzShortRecord", "index out of range",
                 "-autodict=false")
    m = re.fullmatch(r'go test fuzz v1\n\[\]byte\((".*")\)\n', data)
    assert m, data
    b = ast.literal_eval("b" + m.group(1))
    size, chunk = (int.from_bytes(b[i:i + 4], "little") for i in (4, 16))
    assert b[:4] == b"RIFF" and 20 <= len(b) <= 40 and size + 8 == len(b) \
        and chunk + 8 == len(b) - 12, data


def test_cut_record_not_found_without_mutant_traces(case):
    """The control: the same run with only corpus entries traced."""
    r = case.fuzz("FuzzShortRecord", BUDGET, "-autodict=false",
                  env={"CGOFUZZ_CMP_MUTANTS": "0"})
    assert r.rc == 0 and r.stdout.endswith("PASS\n"), str(r)


@pytest.mark.parametrize("target", ["FuzzLoopKey", "FuzzAtoi",
                                    "FuzzShortRecord"])
def test_not_found_without_feedback(case, target):
    """The control: -cmpfeedback=false (and no dictionary), same budget."""
    r = case.fuzz(target, BUDGET, "-autodict=false", "-cmpfeedback=false")
    assert r.rc == 0 and r.stdout.endswith("PASS\n"), str(r)
    assert "comparison feedback" not in r.stderr, str(r)


def test_unpatchable_binary_falls_back(cgofuzz, go, tmp_path_factory,
                                       tmp_path):
    """A binary that cannot be patched (a position-independent one): one
    line says why, and fuzzing goes on as before (a shallow bug is still
    found and reproduced)."""
    why = "a position-independent executable"
    pkg, exe = build(go, tmp_path_factory, flags=["-buildmode=pie"])
    c = Case(cgofuzz, go, exe, str(tmp_path))
    r = c.fuzz("FuzzShallow", BUDGET)
    notes = NOTE.findall(r.stderr)
    assert notes == [why], str(r)
    assert r.rc == 1 and "gocmp: shallow bug" in r.stdout, str(r)


def test_through_go_test_exec(case):
    """go test -fuzz -exec=cgofuzz: go test's binary is stripped, its hooks
    are found in Go's function table, and the byte loop is found from the
    operands (the static dictionary off through CGOFUZZ_FLAGS); go test
    reproduces the input it wrote."""
    # A module path of its own: go test's fuzz cache, $GOCACHE/fuzz/<import
    # path>, is then this case's alone.
    gomod = os.path.join(case.pkg, "go.mod")
    testlib.write(gomod, read(gomod).replace(
        "module gocmp", "module example.com/gocmp%s" % uuid.uuid4().hex[:12]))
    dump = os.path.join(case.tmp, "dump.txt")
    env = testlib.fuzz_env(SEED, TMPDIR=case.tmpdir, GOFLAGS=None,
                           CGOFUZZ_FLAGS="-autodict=false",
                           CGOFUZZ_CMP_DUMP=dump)
    r = run([case.go, "test", "-exec=" + case.cgofuzz, "-fuzz=^FuzzLoopKey$",
             "-fuzztime=200000x", "-parallel=2", "."], case.pkg, env)
    assert r.rc == 1 and "gocmp: loop key matched" in r.out, str(r)
    assert "comparison feedback" not in r.out, str(r)  # no fallback note
    assert records(dump), str(r)
    m = re.search(r"Failing input written to testdata/fuzz/FuzzLoopKey/(\w+)",
                  r.out)
    assert m, str(r)
    rr = run([case.go, "test", "-run=FuzzLoopKey/" + m.group(1)], case.pkg)
    assert rr.rc == 1 and "gocmp: loop key matched" in rr.out, str(rr)
