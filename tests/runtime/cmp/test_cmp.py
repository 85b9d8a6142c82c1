"""Comparison operands reaching the mutator (issue 13; docs/comparisons.md).

`cgofuzz cc` keeps memcmp and its kin calls (the -fno-builtin-* flags of
-fsanitize=fuzzer) and links libcgofuzz_interceptors.a unless ASan, MSan or
TSan (whose interceptors call the sanitizer weak hooks) is on. Cases:

  - the flags and the link line, per -fsanitize list;
  - what clang -O2 does with memcmp(p, "deadline", 8) with and without the
    flags (a call vs a 64-bit compare no trace-cmp hook sees);
  - hooks_prog.c calls each of the nine functions, from itself and from a
    static and a shared library built by plain clang -O2, with recording
    on: every call's operands are in the table of recent compares, in a
    plain build (libcgofuzz_interceptors.a) and an ASan build (ASan's
    interceptors calling the weak hooks), and the functions still answer
    right;
  - issue 13's planted harness (tests/runtime/cmp/planted.c: 3-byte prefix, 32-bit
    magic, memcmp(p, "deadline", 8), a relation between two bytes; -O2) is
    found by `cgofuzz cc` fuzzing within an exec budget with a pinned seed,
    plain and with ASan, and the written file reproduces; built the old
    way (coverage flags only) the same budget does not find it;
  - the value profile (CGOFUZZ_VALUE_PROFILE=1, what -test.fuzzvalueprofile
    sets) finds a bug that only distances lead to, which the same budget
    without it does not;
  - the auto-dictionary keeps tokens that found coverage (worker stats).

Budgets are exec counts (-test.fuzztime=Nx), seeds pinned (GODEBUG=
fuzzseed=N); the coordinator's own scheduling is timed, so budgets keep a
wide margin over the measured finds."""
import os
import re
import struct

import pytest

import testlib
from testlib import run

HERE = os.path.dirname(os.path.abspath(__file__))
NO_BUILTIN = ["-fno-builtin-" + f for f in (
    "memcmp", "bcmp", "strcmp", "strncmp", "strcasecmp", "strncasecmp",
    "strstr", "strcasestr", "memmem")]
COV = "-fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp"
MODES = {"plain": ["-fsanitize=fuzzer"],
         "asan": ["-fsanitize=address,fuzzer"]}


@pytest.fixture(scope="module")
def clang(tool):
    return tool("clang")


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return str(tmp_path_factory.mktemp("cmp"))


def cc(cgofuzz, args, cwd, env=None):
    r = run([cgofuzz, "cc"] + args, cwd=cwd, env=env)
    assert r.rc == 0, "cgofuzz cc failed\n%s" % r
    return r


# -- the build ----------------------------------------------------------------

def verbose_line(cgofuzz, args, tmp_path):
    """The clang command line `cgofuzz cc args` runs (with /bin/true as the
    compiler, so nothing is built)."""
    r = run([cgofuzz, "cc"] + args, cwd=str(tmp_path),
            env={"CGOFUZZ_CC_VERBOSE": "1", "CGOFUZZ_CLANG": "true"})
    assert r.rc == 0, str(r)
    return r.stderr.strip().split("\n")[-1].split()


def test_compiles_keep_the_calls(cgofuzz, tmp_path):
    """Compiles get libFuzzer's -fno-builtin-* flags."""
    line = verbose_line(cgofuzz, ["-c", "x.c"], tmp_path)
    for f in NO_BUILTIN:
        assert f in line, line
    assert not any("interceptors" in a for a in line), line


@pytest.mark.parametrize("flags,linked", [
    ([], True),
    (["-fsanitize=fuzzer"], True),
    (["-fsanitize=undefined,fuzzer"], True),
    (["-fsanitize=hwaddress"], True),   # HWASan intercepts none of them
    (["-fsanitize=address,fuzzer"], False),
    (["-fsanitize=fuzzer", "-fsanitize=address"], False),
    (["-fsanitize=memory"], False),
    (["-fsanitize=thread"], False),
    (["-fsanitize=address", "-fno-sanitize=address"], True),
    (["-fsanitize=address", "-fno-sanitize=all"], True),
], ids=lambda v: " ".join(v) if isinstance(v, list) else str(v))
def test_links_interceptors_without_intercepting_sanitizer(
        cgofuzz, tmp_path, flags, linked):
    """A link gets the whole of libcgofuzz_interceptors.a unless ASan, MSan
    or TSan is on."""
    line = verbose_line(cgofuzz, flags + ["x.c", "-o", "x"], tmp_path)
    lib = [a for a in line if a.endswith("/libcgofuzz_interceptors.a")]
    assert bool(lib) == linked, line
    if linked:
        i = line.index(lib[0])
        assert line[i - 1] == "-Wl,--whole-archive" and \
            line[i + 1] == "-Wl,--no-whole-archive", line


def calls_in(asm, fn):
    """The names the function fn of an assembly listing calls."""
    body = re.search(r"^%s:(.*?)\.cfi_endproc" % fn, asm, re.S | re.M)
    assert body, "no function %s in the listing" % fn
    return re.findall(r"\b(?:call|jmp)q?\s+([A-Za-z_]\w*)", body.group(1))


def test_memcmp_stays_a_call(cgofuzz, clang, tmp_path):
    """clang -O2 expands memcmp(p, "deadline", 8) into a 64-bit compare
    that no trace-cmp hook sees; with `cgofuzz cc` it stays a call
    (memcmp or bcmp), which the interceptors see."""
    src = os.path.join(HERE, "planted.c")
    cc(cgofuzz, ["-O2", "-S", src, "-o", "cc.s"], str(tmp_path))
    r = run([clang, "-O2", COV, "-S", src, "-o", "plain.s"], cwd=str(tmp_path))
    assert r.rc == 0, str(r)
    with_flags = calls_in(testlib.read(str(tmp_path / "cc.s")),
                          "LLVMFuzzerTestOneInput")
    plain = calls_in(testlib.read(str(tmp_path / "plain.s")),
                     "LLVMFuzzerTestOneInput")
    assert set(with_flags) & {"memcmp", "bcmp"}, with_flags
    assert not set(plain) & {"memcmp", "bcmp"}, plain


# -- every interception's operands reach the table ----------------------------

@pytest.fixture(scope="module")
def cmplibs(clang, out):
    """cmplib.c built by plain clang -O2: a static and a shared library."""
    src = os.path.join(HERE, "cmplib.c")
    for argv in ([clang, "-O2", "-DLIB=static", "-c", src, "-o",
                  "cmplib_static.o"],
                 ["ar", "rcs", "libcmplib_static.a", "cmplib_static.o"],
                 [clang, "-O2", "-fPIC", "-shared", "-DLIB=shared", src,
                  "-o", "libcmplib_shared.so"]):
        r = run(argv, cwd=out)
        assert r.rc == 0, str(r)
    return out


@pytest.fixture(scope="module")
def hooks(cgofuzz, source_dir, cmplibs):
    """{mode: (binary, {call: [(fn, a, b)]}, output)} for hooks_prog.c."""
    res = {}
    inc = ["-I" + os.path.join(source_dir, "csrc", d)
           for d in ("runtime", "core", "base")]
    for mode, flags in MODES.items():
        exe = os.path.join(cmplibs, "hooks_" + mode)
        cc(cgofuzz, ["-O2", "-g", "-Wall", "-Werror"] + flags + inc +
           [os.path.join(HERE, "hooks_prog.c"), "libcmplib_static.a",
            "-L.", "-lcmplib_shared", "-Wl,-rpath," + cmplibs, "-o", exe],
           cmplibs)
        r = run([exe, "x"], cwd=cmplibs)
        assert r.rc == 0, str(r)
        entries = {}
        for line in r.stdout.splitlines():
            if line.startswith("results"):
                continue
            call, fn, a, b = line.split()
            entries.setdefault(call, []).append((
                int(fn), b"" if a == "-" else bytes.fromhex(a),
                bytes.fromhex(b)))
        res[mode] = (exe, entries, r.stdout)
    return res


MEMCMP, STRNCMP, STRCMP, STRNCASECMP, STRCASECMP, STRSTR, STRCASESTR, \
    MEMMEM = range(1, 9)


def expected(call):
    """The entry hooks_prog.c's call must leave: (fn, a, b)."""
    lib, _, name = call.rpartition("_")
    if lib:  # cmplib.c: "in-<lib>-<name>x" vs "KEY-<lib>-<name>x"
        i = ("in-%s-%sx" % (lib, name)).encode()
        k = ("KEY-%s-%sx" % (lib, name)).encode()
    else:
        i = ("in-%s-x" % name).encode()
        k = ("KEY-%s-x" % name).encode()
    return {
        "memcmp": (MEMCMP, i, k[:len(i)]),
        "bcmp": (MEMCMP, i, k[:len(i)]),  # bcmp reports as memcmp
        "strcmp": (STRCMP, i, k),
        "strncmp": (STRNCMP, i, k),
        "strcasecmp": (STRCASECMP, i, k),
        "strncasecmp": (STRNCASECMP, i, k),
        "strstr": (STRSTR, b"", k),  # the needle of a failed search
        "strcasestr": (STRCASESTR, b"", k),
        "memmem": (MEMMEM, b"", k),
    }[name]


CALLS = ["memcmp", "bcmp", "strcmp", "strncmp", "strcasecmp", "strncasecmp",
         "strstr", "strcasestr", "memmem"] + \
    ["%s_%s" % (lib, f) for lib in ("static", "shared")
     for f in ("memcmp", "strcmp", "strncasecmp", "strstr")]


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize("mode", list(MODES))
def test_operands_reach_the_table(hooks, mode, call):
    """The call's operands are in the table of recent compares, with the
    function that compared them (plain: through libcgofuzz_interceptors.a;
    asan: through ASan's interceptors and the weak hooks; static_/shared_:
    calls made by a library built without cgofuzz's flags)."""
    _, entries, text = hooks[mode]
    assert entries.get(call) == [expected(call)], text


@pytest.mark.parametrize("mode", list(MODES))
def test_nothing_recorded_when_equal_or_off(hooks, mode):
    """Equal operands, or recording off: no entry."""
    _, entries, text = hooks[mode]
    assert "equal" not in entries and "off" not in entries, text


@pytest.mark.parametrize("mode", list(MODES))
def test_functions_still_answer_right(hooks, mode):
    """The intercepted functions return what libc's do."""
    _, _, text = hooks[mode]
    assert "results ok" in text, text


def test_which_interceptors(hooks, tool):
    """The plain build defines the intercepted functions itself (and
    exports them to the shared libraries); the ASan build has ASan's."""
    nm = tool("nm")
    plain = run([nm, hooks["plain"][0]]).stdout
    asan = run([nm, hooks["asan"][0]]).stdout
    dyn = run([nm, "-D", "--defined-only", hooks["plain"][0]]).stdout
    assert re.search(r" T memcmp$", plain, re.M), plain[-2000:]
    assert "__interceptor_memcmp" not in plain
    assert "__interceptor_memcmp" in asan
    for f in ("memcmp", "strcmp", "strncasecmp", "strstr"):
        assert re.search(r" T %s$" % f, dyn, re.M), (f, dyn)


# -- issue 13's planted harness ------------------------------------------------

PLANTED_BUDGET = 2000000  # found within 100000 execs with seeds 1-8
PLANTED_SEED = 1


@pytest.fixture(scope="module")
def planted(cgofuzz, out):
    """planted.c built by `cgofuzz cc -O2`, plain and with ASan."""
    bins = {}
    for mode, flags in MODES.items():
        exe = os.path.join(out, "planted_" + mode)
        cc(cgofuzz, ["-O2", "-g"] + flags +
           [os.path.join(HERE, "planted.c"), "-o", exe], out)
        bins[mode] = exe
    return bins


def check_planted_input(data):
    assert data[:3] == b"CGF", data
    assert struct.unpack("<I", data[3:7])[0] == 0x1badb002, data
    assert data[7:15] == b"deadline", data
    assert data[15] + 1 == data[16], data


@pytest.mark.parametrize("mode", list(MODES))
def test_planted_found_and_reproduces(planted, mode, tmp_path):
    """`cgofuzz cc` fuzzing finds the planted crash within the budget (one
    worker, pinned seed); the written input passes every check of the
    harness and re-running it crashes."""
    d = str(tmp_path)
    r = testlib.fuzz(planted[mode], "FuzzLibFuzzer", d, PLANTED_BUDGET,
                     seed=PLANTED_SEED)
    path = testlib.failing_input(r.stdout, "FuzzLibFuzzer")
    assert r.rc == 1 and path, \
        "not found within %d execs\n%s" % (PLANTED_BUDGET, r)
    check_planted_input(testlib.go_bytes(testlib.read(os.path.join(d, path))))
    rr = run([planted[mode], "-test.run=FuzzLibFuzzer/" +
              os.path.basename(path)], cwd=d)
    assert rr.rc not in (0, None), "the file does not reproduce\n%s" % rr


def test_planted_not_found_the_old_way(clang, build_dir, out, tmp_path):
    """Control: built as `cgofuzz cc` did before (coverage flags, no
    -fno-builtin-*, no interceptors), the same budget and seed do not find
    it: the memcmp is a blind 64-bit compare."""
    exe = os.path.join(out, "planted_old")
    r = run([clang, "-O2", "-g", COV, os.path.join(HERE, "planted.c"),
             os.path.join(build_dir, "libcgofuzz_main.a"),
             os.path.join(build_dir, "libcgofuzz.a"), "-lpthread", "-lm",
             "-o", exe], cwd=out)
    assert r.rc == 0, str(r)
    r = testlib.fuzz(exe, "FuzzLibFuzzer", str(tmp_path), PLANTED_BUDGET,
                     seed=PLANTED_SEED)
    assert r.rc == 0 and "PASS" in r.stdout, r


# -- value profile and auto-dictionary -----------------------------------------

VP_BUDGET = 20000000  # median find about 2.6M execs over 7 seeds


@pytest.fixture(scope="module")
def vp_target(cgofuzz, out):
    exe = os.path.join(out, "distance")
    cc(cgofuzz, ["-O2", "-fsanitize=fuzzer",
                 os.path.join(HERE, "distance.c"), "-o", exe], out)
    return exe


def test_value_profile_finds_distance_bug(vp_target, tmp_path):
    """x * K == (y ^ C) + D: no operand is in the input, so input-to-state
    cannot help; with the value profile the worker climbs the Hamming
    distance through inputs it keeps locally and finds it (seed 1, else
    seed 2, each within the budget)."""
    runs = []
    for seed in (1, 2):
        d = str(tmp_path / str(seed))
        os.makedirs(d)
        r = testlib.fuzz(vp_target, "FuzzLibFuzzer", d, VP_BUDGET, seed=seed,
                         env={"CGOFUZZ_VALUE_PROFILE": "1",
                              "CGOFUZZ_WORKER_STATS": d + "/stats"})
        runs.append(r)
        if r.rc == 1 and testlib.failing_input(r.stdout):
            return
    pytest.fail("not found with the value profile\n%s" %
                "\n".join(map(str, runs)))


def test_no_value_profile_does_not_find_it(vp_target, tmp_path):
    """Control: without the value profile the same budget does not."""
    r = testlib.fuzz(vp_target, "FuzzLibFuzzer", str(tmp_path), VP_BUDGET,
                     seed=1)
    assert r.rc == 0 and "PASS" in r.stdout, r


def test_autodict_keeps_tokens(cgofuzz, out, tmp_path):
    """keywords.c: fuzzing finds every keyword (strstr, strcmp, memcmp) and
    the worker's auto-dictionary holds the tokens that found coverage."""
    exe = os.path.join(out, "keywords")
    cc(cgofuzz, ["-O2", "-fsanitize=fuzzer", os.path.join(HERE, "keywords.c"),
                 "-o", exe], out)
    d = str(tmp_path)
    stats = os.path.join(d, "stats")
    r = testlib.fuzz(exe, "FuzzLibFuzzer", d, 3000000, seed=1,
                     env={"CGOFUZZ_WORKER_STATS": stats})
    assert r.rc == 0, str(r)
    found = b"".join(testlib.go_bytes(testlib.read(f)) for f in
                     testlib.corpus_entries(os.path.join(d, "cache",
                                                         "FuzzLibFuzzer")))
    for kw in (b"alpha", b"bravo", b"charlie-delta", b"echo-fox"):
        assert kw in found, (kw, found, str(r))
    m = re.search(r"autodict (\d+)", testlib.read(stats))
    assert m and int(m.group(1)) >= 3, testlib.read(stats)
