"""Dictionary mutations of `cgofuzz fuzz` for unmodified Go test binaries
(docs/godict.md).

tests/coord/godict/target is built once per session with `go test -c -fuzz=.`.
Its planted bugs are out of reach of Go's own fuzzer, which has no
comparison feedback: an 8-byte string compared byte by byte in a loop
(FuzzLoop), a 32-bit magic compared as one integer (FuzzMagic32), a
64-bit integer argument equal to a constant (FuzzClassify) and a key of a
map literal whose keys are only in the binary's data (FuzzMapKey). Every case
fuzzes in its own copy of the package with its own cache and $TMPDIR, under
a pinned GODEBUG fuzzseed and an exec budget, and checks the written
failing input with plain `go test -run`.
"""
import os
import re
import shutil

import pytest

import testlib
from testlib import read, run

SEED = 1
# The planted bugs take a few hundred to a few thousand execs with the
# dictionary (the first pass tries every token as it is); without it they
# are not found in this budget (test_not_found_without_dictionary).
FIND_BUDGET = "-fuzztime=300000x"

KEY = b"Kx7#qZ2m"
MAGIC_LE = bytes.fromhex("e5913c7a")  # 0x7a3c91e5
WIDE_LE = bytes.fromhex("8877665544332211")  # 0x1122334455667788
# tables.go: the keys of a 30-entry map literal, a []string and an array
# of structs, all strings that no instruction mentions.
OPCODES = [b"op-" + k for k in (
    b"nop load store push pop add sub mul div mod and or xor shl shr jmp jz "
    b"trap-door call ret cmp neg not dup swap rot halt in out yield").split()]
TABLES = [b"kw-select", b"kw-frobnicate", b"kw-quux", b"kw-zephyr",
          b"unit-kibi", b"unit-mebi", b"unit-gibi"]
# Tables of other packages in the same binary (time.longDayNames,
# time.longMonthNames, runtime.waitReasonStrings): not the target's.
FOREIGN = [b"Wednesday", b"September", b"chan receive"]
# Releases the data extraction is checked with besides the installed one
# (scripts/install-deps.sh puts them in the module cache).
OTHER_RELEASES = ["go1.18.10", "go1.22.12"]


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


@pytest.fixture(scope="session")
def target_src(source_dir):
    return os.path.join(source_dir, "tests", "coord", "godict", "target")


@pytest.fixture(scope="session")
def binary(go, target_src, tmp_path_factory):
    return testlib.build_go_test_copy(go, target_src, tmp_path_factory,
                                      "godict")


class Case:
    def __init__(self, cgofuzz, go, binary, src, tmp):
        self.cgofuzz, self.go, self.binary, self.tmp = cgofuzz, go, binary, tmp
        self.pkg = os.path.join(tmp, "godict")
        shutil.copytree(src, self.pkg)
        self.cache = os.path.join(tmp, "cache")
        self.tmpdir = os.path.join(tmp, "tmp")
        os.makedirs(self.tmpdir)
        self.env = testlib.fuzz_env(SEED, TMPDIR=self.tmpdir)

    def fuzz(self, target, *extra, env=None):
        e = dict(self.env)
        e.update(env or {})
        # The dictionary alone: comparison feedback (docs/comparisons.md,
        # tests/coord/gocmp) finds these planted bugs too.
        cmd = testlib.fuzz_cmd(self.cgofuzz, self.binary, target, self.cache,
                               ("-cmpfeedback=false",) + extra)
        return run(cmd, self.pkg, e)

    def path(self, name):
        return os.path.join(self.tmp, name)


@pytest.fixture
def case(cgofuzz, go, binary, target_src, tmp_path):
    return Case(cgofuzz, go, binary, target_src, str(tmp_path))


def parse_dict(text):
    """The entries of a libFuzzer dictionary, grouped by the comment line
    before them: {group: [bytes, ...]}."""
    groups, group = {}, ""
    for line in text.splitlines():
        s = line.strip()
        if not s:
            continue
        if s.startswith("#"):
            group = s[1:].strip()
            continue
        q = s.index('"')
        assert s.endswith('"'), line
        body, out, i = s[q + 1:-1], bytearray(), 0
        while i < len(body):
            c = body[i]
            if c == "\\" and body[i + 1] == "x":
                out.append(int(body[i + 2:i + 4], 16))
                i += 4
            elif c == "\\":
                out.append(ord(body[i + 1]))
                i += 2
            else:
                out.append(ord(c))
                i += 1
        groups.setdefault(group, []).append(bytes(out))
    return groups


def all_tokens(groups):
    return {t for ts in groups.values() for t in ts}


def dictout(case, target, *extra, env=None):
    out = case.path("dict.txt")
    r = case.fuzz(target, "-fuzztime=1x", "-dictout=" + out, *extra, env=env)
    assert r.rc == 0, str(r)
    return parse_dict(read(out)), r


def test_extraction_finds_planted_constants(case):
    """The constants the target's package compares with are taken from the
    binary: the loop's string (LEAQ of Go's string data, with the loop
    bound as its length), the 32-bit magic in both byte orders, a string
    compared whole, a 64-bit and a 16-bit integer; the seeds' printable
    runs come from the corpus."""
    groups, r = dictout(case, "FuzzLoop", "-v")
    binary = set(groups.get("constants of the target's package", []))
    want = [KEY, MAGIC_LE, MAGIC_LE[::-1], b"open-sesame-42", WIDE_LE,
            WIDE_LE[::-1], bytes.fromhex("efbe")]
    missing = [t for t in want if t not in binary]
    assert not missing, "missing %r in %r\n%s" % (missing, groups, r)
    corpus = all_tokens({k: v for k, v in groups.items() if "corpus" in k
                         or "seeds" in k})
    assert b"hello, fuzzer" in corpus, groups
    assert re.search(r"cgofuzz: dictionary: \d+ tokens", r.stderr), str(r)


def test_extraction_without_go(case, tmp_path):
    """Without go on $PATH the constants of the binary's code are left
    out; its data is still read (the tables), the corpus still gives
    tokens and fuzzing goes on."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    groups, r = dictout(case, "FuzzLoop", "-v",
                        env={"PATH": str(bindir)})
    assert KEY not in all_tokens(groups), groups
    assert b"kw-select" in all_tokens(groups), groups
    assert b"hello, fuzzer" in all_tokens(groups), groups
    assert "go is not in $PATH" in r.stderr, str(r)


def assert_data_literals(groups, binary_path, r):
    """The map literal's keys and the tables' strings are tokens of the
    target's package, exactly; other packages' tables (in the same
    binary) are not tokens."""
    own = groups.get("constants of the target's package", [])
    missing = [t for t in OPCODES + TABLES if t not in own]
    assert not missing, "missing %r in %r\n%s" % (missing, groups, r)
    with open(binary_path, "rb") as f:
        data = f.read()
    for t in FOREIGN:
        assert t in data, "%r is not in the binary: pick another" % t
    taken = [t for t in FOREIGN if t in all_tokens(groups)]
    assert not taken, "other packages' strings %r in %r" % (taken, groups)


def test_extraction_takes_data_literals(case):
    """String literals that only the binary's data holds: the keys of a
    map literal of more than 25 entries (static arrays a loop in the
    package's init reads), a package-level []string (a slice header in
    .data, its array without a symbol) and an array of structs."""
    groups, r = dictout(case, "FuzzMapKey")
    assert_data_literals(groups, case.binary, r)


@pytest.mark.parametrize("release", OTHER_RELEASES)
def test_extraction_takes_data_literals_release(case, release):
    """The same from a binary built by an older Go release: go.string.*
    before Go 1.20, the map literal filled in <pkg>.init before Go 1.21
    (<pkg>.map.init.0 since)."""
    env = {"GOTOOLCHAIN": release, "GOFLAGS": "-mod=mod", "GOPROXY": "off"}
    r = run([case.go, "env", "GOROOT"], "/", env)
    if r.rc != 0:
        pytest.skip("%s is not in the module cache (scripts/install-deps.sh "
                    "fetches it)" % release)
    exe = case.path("rel.test")
    r = run([case.go, "test", "-c", "-fuzz=.", "-o", exe, "."], case.pkg, env)
    assert r.rc == 0, str(r)
    case.binary = exe
    groups, r = dictout(case, "FuzzMapKey")
    assert_data_literals(groups, exe, r)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def test_dict_file_parsed(case):
    """A -dict file in libFuzzer/AFL format: names, levels, bare values,
    escapes, comments and blank lines; each entry kept once."""
    d = write(case.path("user.dict"),
              '# a comment\n'
              '\n'
              'kw1="Kx7#qZ2m"\n'
              'kw2@3="a\\"b\\\\c"\n'
              '  "\\x00\\xffZ"  \r\n'
              'dup="Kx7#qZ2m"\n')
    groups, r = dictout(case, "FuzzLoop", "-autodict=false", "-dict=" + d)
    assert groups == {"from -dict files": [KEY, b'a"b\\c', b"\x00\xffZ"]}, \
        "%r\n%s" % (groups, r)


@pytest.mark.parametrize("text,line,why", [
    ('ok="x"\nbad=x\n', 2, "no quoted value"),
    ('ok="x"\n\n"a\\qb"\n', 3, "bad escape"),
    ('"abc\n', 1, "no closing quote"),
    ('"abc" trailing\n', 1, "text after the closing quote"),
])
def test_dict_file_error_names_line(case, text, line, why):
    """A malformed entry is a usage error naming the file and line, before
    anything runs."""
    d = write(case.path("bad.dict"), text)
    r = case.fuzz("FuzzLoop", "-fuzztime=1x", "-dict=" + d)
    assert r.rc == 2, str(r)
    assert "%s:%d: malformed dictionary entry: %s" % (d, line, why) \
        in r.stderr, str(r)
    assert "fuzz: elapsed" not in r.stderr, str(r)


def test_dict_file_missing(case):
    r = case.fuzz("FuzzLoop", "-fuzztime=1x", "-dict=" + case.path("none"))
    assert r.rc == 2 and "cannot read dictionary" in r.stderr, str(r)


def assert_found(case, target, want_msg, *extra, env=None, from_call=None):
    """A run of target ends FAIL with want_msg, writes the failing input to
    testdata, and plain `go test -run` reproduces it (from_call: -v said
    that kind of dictionary call found it). Returns the file."""
    r = case.fuzz(target, FIND_BUDGET, "-v", *extra, env=env)
    if from_call:
        assert "failing input came from a dictionary call (%s)" % from_call \
            in r.stderr, str(r)
    assert r.rc == 1 and want_msg in r.stdout, "%s: not found\n%s" % (target, r)
    m = re.search(r"Failing input written to (testdata/fuzz/%s/(\w+))"
                  % target, r.stdout)
    assert m, str(r)
    rr = run([case.go, "test", "-timeout=60s",
              "-run=%s/%s" % (target, m.group(2))], case.pkg)
    assert rr.rc == 1 and want_msg in rr.out, \
        "go test does not reproduce %s\n%s\n%s" % (m.group(1), rr, r)
    return read(os.path.join(case.pkg, m.group(1)))


PLANTED = [
    ("FuzzLoop", "godict: loop key matched"),
    ("FuzzMagic32", "godict: magic matched"),
    ("FuzzClassify", "godict: 64-bit constant matched"),
    ("FuzzMapKey", "godict: map key matched"),
]


@pytest.mark.parametrize("target,msg", PLANTED, ids=[t for t, _ in PLANTED])
def test_planted_found_and_reproduced(case, target, msg):
    """Each planted bug is found from the binary's own constants within
    the budget, minimized, and reproduced by go test."""
    data = assert_found(case, target, msg)
    if target == "FuzzLoop":
        assert data == 'go test fuzz v1\n[]byte("Kx7#qZ2m")\n', data
    if target == "FuzzMagic32":
        assert data == 'go test fuzz v1\n[]byte("\\xe5\\x91<z")\n', data


def test_code_constants_arrive_while_fuzzing(case):
    """A run of -fuzztime=D (not Nx, nor -dictout, which wait for it) does
    not wait for `go tool objdump`: it starts with the data's and the
    corpus's tokens, and the code's constants join when objdump is done.
    The loop's key is in the code only and comparison feedback is off, so
    the run cannot end before they arrive: it ends when the key finds the
    bug (the time limit only bounds a broken objdump)."""
    r = case.fuzz("FuzzLoop", "-fuzztime=300s", "-v", "-cmpfeedback=false")
    assert "its code's constants follow" in r.stderr, str(r)
    m = re.search(r"cgofuzz: dictionary: (\d+) tokens from the code \(go "
                  r"tool objdump, \d+ ms\), \d+ in all", r.stderr)
    assert m and int(m.group(1)) > 0, str(r)
    assert r.stderr.index("its code's constants follow") < m.start(), str(r)
    assert r.rc == 1 and "godict: loop key matched" in r.stdout, str(r)


def test_exec_counted_runs_wait_for_the_code(case):
    """-fuzztime=Nx is to be the same every time: the code's constants are
    in the dictionary before the first input (no "follow" line)."""
    r = case.fuzz("FuzzLoop", FIND_BUDGET, "-v", "-cmpfeedback=false")
    assert "its code's constants follow" not in r.stderr, str(r)
    assert "tokens from the code" not in r.stderr, str(r)
    assert r.rc == 1 and "godict: loop key matched" in r.stdout, str(r)


@pytest.mark.parametrize("mode", ["exact", "base"])
def test_each_call_kind_rebuilds_exactly(case, mode):
    """Every call an exact run of a built input, or every call Go's
    mutations of a built input ($CGOFUZZ_DICT_CALLS): either way the
    failing input written, unminimized, is the one that failed (the
    coordinator replays Go's mutations from the value it built). The key
    is the only token (-autodict=false -dict), so what is tested is the
    rebuild, not how soon Go's mutations leave a token of many intact."""
    d = write(case.path("key.dict"), 'key="Kx7#qZ2m"\n')
    assert_found(case, "FuzzLoop", "godict: loop key matched",
                 "-fuzzminimizetime=0", "-autodict=false", "-dict=" + d,
                 env={"CGOFUZZ_DICT_CALLS": mode},
                 from_call={"exact": "an exact run",
                            "base": "Go's mutations of a built input"}[mode])


def test_user_dictionary_finds(case):
    """-autodict=false -dict FILE: the user's tokens alone find the bug."""
    d = write(case.path("key.dict"), 'key="Kx7#qZ2m"\n')
    assert_found(case, "FuzzLoop", "godict: loop key matched",
                 "-autodict=false", "-dict=" + d)


def test_not_found_without_dictionary(case):
    """The control: without a dictionary the same budget finds nothing."""
    r = case.fuzz("FuzzMagic32", FIND_BUDGET, "-autodict=false")
    assert r.rc == 0 and r.stdout.endswith("PASS\n"), str(r)


# Planted bugs made of the seeds' parts (parts_test.go): three tags, each
# in one seed only and compared by hash (no code constant names them), and
# a decimal number at int64's limit (go/scanner's //line bug of go1.20.2).
PARTS = [
    ("FuzzTagChain", "godict: tag chain matched"),
    ("FuzzLineNumber", "godict: line number overflowed"),
]


def test_seed_parts_in_dictionary(case):
    """A text seed gives its bracketed segments and its words, and a text
    seed with a number the decimal limits of Go's integer types."""
    groups, _ = dictout(case, "FuzzTagChain")
    toks = all_tokens(groups)
    for want in (b"<head>", b"<svg width=1>", b"<select>", b"<circle/>",
                 b"width=1", b"9223372036854775807", b"-2147483648"):
        assert want in toks, (want, groups)
    groups, _ = dictout(case, "FuzzLineNumber")
    toks = all_tokens(groups)
    # "text\nline 10\nmore text\n" is text: its newlines do not make it
    # binary (they did, and it gave no tokens at all).
    assert {b"line 10", b"more text", b"9223372036854775807"} <= toks, groups


@pytest.mark.parametrize("target,msg", PARTS, ids=[t for t, _ in PARTS])
def test_seed_parts_found(case, target, msg):
    """Crossovers, segments put in place of segments and numbers in place
    of numbers reach what Go's one-byte mutations do not. Every call is an
    exact run of a built value ($CGOFUZZ_DICT_CALLS=exact), so the budget
    counts builds: pinned seeds found them in 0.6k-39k (chain) and 0.1k-2.5k
    (number) of the 300k."""
    assert_found(case, target, msg, env={"CGOFUZZ_DICT_CALLS": "exact"},
                 from_call="an exact run")


@pytest.mark.parametrize("target,msg", PARTS, ids=[t for t, _ in PARTS])
def test_seed_parts_not_found_without_dictionary(case, target, msg):
    """The control: Go's mutator alone, in the same budget."""
    r = case.fuzz(target, FIND_BUDGET, "-autodict=false")
    assert r.rc == 0 and r.stdout.endswith("PASS\n"), str(r)
