"""C inside Go packages, fuzzed as it is (csrc/cli/cmd_cgocc.c,
csrc/runtime/cgo/cgo_hooks.c, docs/gofuzz.md "C inside Go packages"):
tests/cli/cgo-cc/pkg is a cgo package with nothing of cgofuzz in it, built with
CC/CXX from `cgofuzz cgo-env` and nothing else:

- a magic checked one byte per C branch is found by go test -fuzz (Go's own
  coordinator) and by go test -fuzz -exec=cgofuzz, and not by go test -fuzz
  on the same package built with plain clang (the control);
- a C memcmp gate is opened by cgofuzz's comparison feedback;
- a NULL write in C (no sanitizer) is found, its report names the C
  function, and go test -run reproduces it; a crash inside libc's memcpy
  names the package's C function that called it, in cgofuzz's report and
  in the C frames of Go's own (go test -run); -fuzzcontinue tells two C
  crashes behind one Go call apart by those frames;
- a C heap overflow under go test -asan is found with AddressSanitizer's
  report naming the C function, and go test -run reproduces it;
- C++ (CXX) works the same;
- a generated package of more than 100,000 C edges: Go's counter range ends
  where the C counters end, and their number equals an independent count
  (go tool cgo + clang alone, section sizes read by readelf); a magic in
  its last C function is found;
- plain go test passes with the same setting; cgofuzz fuzz ./... needs no
  setting at all; a gcc named as the compiler is refused in one line.

Every case copies the package under a module path of its own (go's fuzz
cache is per import path); fuzzing runs pin GODEBUG=fuzzseed (cgofuzz) and
count execs (-fuzztime=Nx)."""
import glob
import os
import re
import shutil
import subprocess
import uuid

import pytest

import testlib
from testlib import run

HERE = os.path.dirname(os.path.abspath(__file__))
BUDGET = 3000000  # far above what a find takes (tens of thousands)


# The cases the ASan+UBSan build runs too: those where cgofuzz's own code
# does work of its own (cgo-cc rewriting objects and linking, the tracing
# copy filling the cgo table, the refusal). The others exercise Go's
# toolchain and the same coordinator again; in the sanitized build they
# would add about a minute to the suite.
SANITIZED_SUBSET = {
    "test_cgofuzz_finds_magic_and_go_reproduces",
    "test_c_memcmp_gate_opened_by_comparison_feedback",
    "test_big_package_counters_all_in_go_range",
    "test_gcc_is_refused_in_one_line",
    "test_plain_c_crash_names_the_c_function",
    "test_c_crash_in_libc_names_its_c_caller",
    "test_fuzzcontinue_tells_c_crashes_apart",
}


@pytest.fixture(autouse=True)
def plain_build_only(request, sanitized):
    if sanitized and request.function.__name__ not in SANITIZED_SUBSET:
        pytest.skip("run in the plain build only (the sanitized build runs "
                    "the cases where cgofuzz's own code differs)")


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


@pytest.fixture(scope="session")
def clang(tool):
    tool("clang++")
    return tool("clang")


@pytest.fixture(scope="session")
def cgoenv(cgofuzz, clang):
    """CC and CXX as `cgofuzz cgo-env` prints them."""
    r = run([cgofuzz, "cgo-env"], cwd=HERE)
    assert r.rc == 0, r
    env = dict(re.findall(r"^(CC|CXX)=(\S+)$", r.stdout, re.M))
    assert set(env) == {"CC", "CXX"}, r
    for path in env.values():
        assert os.access(path, os.X_OK), r
    return env


def copy_pkg(tmp):
    """tests/cli/cgo-cc/pkg under a module path of its own (go's fuzz cache is per
    import path); its directory."""
    return testlib.copy_module(os.path.join(HERE, "pkg"),
                               os.path.join(str(tmp), "pkg"),
                               "example.com/cgopkg")


def go_env(extra=None):
    env = testlib.fuzz_env(GOFLAGS=None, CGOFUZZ_FLAGS=None, CC=None,
                           CXX=None, CGOFUZZ_CLANG=None)
    env.update(extra or {})
    return env


def failing(d, target):
    return sorted(glob.glob(os.path.join(d, "testdata", "fuzz", target, "*")))


def test_cgo_env_names_links_to_cgofuzz(cgofuzz, cgoenv):
    """The compilers are single executables (the go command probes linker
    flags with CC's first word alone) that resolve to cgofuzz."""
    real = os.path.realpath(cgofuzz)
    for name, path in cgoenv.items():
        assert " " not in path
        assert os.path.realpath(path) == real, (name, path)


def test_plain_go_test_passes(go, cgoenv, tmp_path):
    d = copy_pkg(tmp_path)
    r = run([go, "test", "-count=1", "."], d, go_env(cgoenv))
    assert r.rc == 0 and "ok" in r.out, r
    r = run([go, "vet", "."], d, go_env(cgoenv))
    assert r.rc == 0, r


def test_go_test_fuzz_sees_the_c_edges(go, cgoenv, clang, tmp_path):
    """Go's own coordinator, on the cgo-cc build: the C magic is found and
    go test -run fails on what it wrote. The control, built with plain
    clang, does not find it in 200,000 execs (a 4-byte magic by chance is
    one in four billion)."""
    d = copy_pkg(tmp_path)
    args = ["-run=^FuzzMagic$", "-fuzz=^FuzzMagic$", "-parallel=1", "."]
    control = run([go, "test", "-fuzztime=200000x"] + args, d,
                  go_env({"CC": clang}))
    assert control.rc == 0 and not failing(d, "FuzzMagic"), control
    r = run([go, "test", "-fuzztime=%dx" % BUDGET] + args, d, go_env(cgoenv))
    assert r.rc == 1 and "magic" in r.out, r
    files = failing(d, "FuzzMagic")
    assert len(files) == 1, r
    assert 'FUZZ' in testlib.read(files[0])
    rr = run([go, "test", "-run=FuzzMagic/" + os.path.basename(files[0]), "."],
             d, go_env(cgoenv))
    assert rr.rc == 1 and "magic" in rr.out, rr


@pytest.mark.parametrize("release", ["go1.18.10", "go1.22.12"])
def test_older_go_releases(go, cgoenv, release, tmp_path):
    """Go's counter range has had three section names (go1.18's
    __libfuzzer_extra_counters, go1.19's __sancov_cntrs, .go.fuzzcntrs
    since); the C counters end it in each. Toolchains are the ones
    scripts/install-deps.sh fetches (GOPROXY=off: a missing one skips)."""
    d = copy_pkg(tmp_path)
    env = go_env(dict(cgoenv, GOTOOLCHAIN=release, GOPROXY="off",
                      GOFLAGS="-mod=mod"))
    v = run([go, "version"], d, env)
    if v.rc != 0 or release not in v.out:
        pytest.skip("%s is not in the module cache (scripts/install-deps.sh "
                    "fetches it): %s" % (release, v.out[-200:]))
    exe = os.path.join(str(tmp_path), "pkg.test")
    b = run([go, "test", "-c", "-fuzz=.", "-o", exe, "."], d, env)
    assert b.rc == 0, b
    s = symbols(exe)
    assert s["internal/fuzz._ecounters"] == s["__stop___sancov_cntrs"]
    assert s["internal/fuzz._counters"] < s["__start___sancov_cntrs"]
    r = testlib.fuzz(exe, "FuzzMagic", d, BUDGET)
    assert r.rc == 1 and "magic" in r.out, r


def test_cgo_loop_in_cgo_wrappers(go, cgoenv, tmp_path):
    """cgo-cc compiles cgo's wrappers file (x.cgo2.c) from a copy in which
    each wrapper of a C function that takes a pointer calls the cgo loop
    first, with itself and its arguments' offsets (the pointers', then the
    others' with their sizes), and hands over its find after the C call; a
    C function
    that returns a pointer (memory its caller may free) is left alone, and
    so is every other line (csrc/cli/cgowrap.c)."""
    d = copy_pkg(tmp_path)
    out = os.path.join(d, "cgo-out")
    r = run([go, "tool", "cgo", "-objdir", out, "magic.go"], d, go_env(cgoenv))
    assert r.rc == 0, r
    src = os.path.join(out, "magic.cgo2.c")
    r = run([cgoenv["CC"], "-c", "-I", out, "-I", d, src, "-o",
             os.path.join(out, "magic.o")], out, go_env(cgoenv))
    assert r.rc == 0, r
    rewritten = testlib.read(os.path.join(out, "magic.cgo2.cgofuzz.c"))
    original = testlib.read(src)
    looped = re.findall(r"^_cgo_[0-9a-f]+_Cfunc_(\w+)\(void \*v\)\n\{\n"
                        r"\tstruct \{\n(?:\t\t.*\n)+\t\} __attribute__.*\n"
                        r"\t\{\n.*"
                        r"__builtin_offsetof\(__typeof__\(\*_cgo_a\), p0\), "
                        r"0xffff, __builtin_offsetof\(__typeof__\(\*_cgo_a\), "
                        r"p1\) \* 16 \+ sizeof\(_cgo_a->p1\), 0xffff, "
                        r"__builtin_offsetof\(__typeof__\(\*_cgo_a\), r\) "
                        r"\* 16 \+ \(sizeof\(_cgo_a->r\) & 15\), "
                        r"0xffff\};\n.*\n"
                        r"\t\tcgofuzz_cgo_loop\(v, sizeof \*_cgo_a, "
                        r"_cgo_[0-9a-f]+_Cfunc_(\w+), _cgofuzz_args\);",
                        rewritten, re.M)
    assert sorted(a for a, b in looped if a == b) == sorted(
        ["copy_name", "count_tag", "frame_size", "gate", "magic",
         "parse_record", "records", "sum_record"]), looped
    # decode_frame's pointers are two, its other arguments two.
    assert re.search(r"_Cfunc_decode_frame\(void \*v\)\n(?:.*\n){6,12}\t\t"
                     r"static const unsigned short _cgofuzz_args\[\] = \{"
                     r"__builtin_offsetof\(__typeof__\(\*_cgo_a\), p0\), "
                     r"__builtin_offsetof\(__typeof__\(\*_cgo_a\), p2\), "
                     r"0xffff, .*p1\) \* 16 .*p3\) \* 16 .*0xffff, .*r\) "
                     r"\* 16 .*0xffff\};", rewritten), rewritten
    assert "_Cfunc_find_tag(void *v)" in rewritten
    # Nothing else changed: without the inserted blocks, the same text.
    stripped = re.sub(r"void cgofuzz_cgo_loop(_end)?\(.*\n", "", rewritten)
    stripped = re.sub(r"\tcgofuzz_cgo_loop_end\(v\);\n", "", stripped)
    stripped = re.sub(r"\t\{\n\t\tstatic const unsigned short _cgofuzz_args"
                      r"(?:.*\n)(?:\t\t.*\n)+\t\}\n", "", stripped)
    assert stripped == original


LOOP_LINE = (r"^cgofuzz: cgo loop: (\d+) inputs run again at the cgo boundary, "
             r"(\d+) of them new C coverage \((\d+) joined the corpus "
             r"unminimized\), (\d+) with an output buffer sized by their own "
             r"size query, (\d+) mutants of the coordinator's pick, "
             r"(\d+) of its picks crossed in$")


def fuzz_with_loop(go, cgofuzz, cgoenv, tmp_path, target):
    """Builds tests/cli/cgo-cc/pkg's test binary, fuzzes target with -v for
    BUDGET execs; the package dir, the binary, the result and -v's cgo
    loop figures (inputs run, finds, finds kept unminimized, inputs sized
    by a size query, inputs of chains from the coordinator's pick, picks
    that joined the pool of inputs to cross in), None
    when the line is missing."""
    d = copy_pkg(tmp_path)
    exe = os.path.join(str(tmp_path), "pkg.test")
    b = run([go, "test", "-c", "-fuzz=.", "-o", exe, "."], d, go_env(cgoenv))
    assert b.rc == 0, b
    r = run([cgofuzz, "fuzz", "-v", "-fuzz=^%s$" % target, "-parallel=1",
             "-fuzztime=%dx" % BUDGET, "-fuzzcachedir=" + os.path.join(d, "c"),
             exe], d, go_env())
    m = re.search(LOOP_LINE, r.stderr, re.M)
    return d, exe, r, (tuple(map(int, m.groups())) if m else None)


def test_cgo_loop_finds_c_magic_and_go_reproduces(go, cgofuzz, cgoenv,
                                                  tmp_path):
    """The cgo loop runs the magic's C function again on mutants of the
    fuzz input at the cgo boundary: with it, a mutant that reaches a new C
    edge becomes the call's input (-v counts them), the magic is found, and
    go test -run reproduces the input written. CGOFUZZ_CGO_LOOP=0 turns it
    off."""
    d, exe, r, loop = fuzz_with_loop(go, cgofuzz, cgoenv, tmp_path,
                                     "FuzzMagic")
    assert r.rc == 1 and "magic" in r.out, r
    assert loop and loop[1] >= 1 and loop[0] > loop[1], r
    # The seeds are []byte("...") files: chains start from the pick as the
    # coordinator sent it (cgofuzz_cgo_pick decodes it), not Go's mutant.
    assert 0 < loop[4] <= loop[0], r
    # Each new pick joins the pool the crossover takes parts of (the seed
    # at least), as libFuzzer crosses in any input of its corpus.
    assert loop[5] >= 1, r
    # The loop's finds join as found (libFuzzer keeps its inputs), not
    # minimized as Go's own finds are.
    assert 1 <= loop[2] <= loop[1], r
    files = failing(d, "FuzzMagic")
    assert len(files) == 1 and "FUZZ" in testlib.read(files[0]), r
    rr = run([go, "test", "-run=FuzzMagic/" + os.path.basename(files[0]), "."],
             d, go_env(cgoenv))
    assert rr.rc == 1 and "magic" in rr.out, rr
    off = run([cgofuzz, "fuzz", "-v", "-fuzz=^FuzzGate$", "-parallel=1",
               "-fuzztime=2000x", "-fuzzcachedir=" + os.path.join(d, "c2"),
               exe], d, go_env({"CGOFUZZ_CGO_LOOP": "0"}))
    assert off.rc in (0, 1) and "cgofuzz: coverage:" in off.stderr, off
    assert "cgo loop" not in off.stderr, off


def test_cgo_loop_sizes_output_by_size_query(go, cgofuzz, cgoenv, tmp_path):
    """Go asks C for a frame's output size, makes a buffer of it and hands
    both to the decoder (tests/cli/cgo-cc/pkg: frame_size, decode_frame):
    the loop's mutants of the decoder's call are asked the size again, and
    one whose header grows the output runs with a buffer of its own of
    that size (-v counts them). The assertion behind a 64-byte output and
    a 3-byte body is found, written and reproduced by go test -run."""
    d, exe, r, loop = fuzz_with_loop(go, cgofuzz, cgoenv, tmp_path,
                                     "FuzzFrame")
    assert loop and loop[3] > 0, r
    assert r.rc == 1 and "big frame" in r.out, r
    files = failing(d, "FuzzFrame")
    assert len(files) == 1, r
    rr = run([go, "test", "-run=FuzzFrame/" + os.path.basename(files[0]), "."],
             d, go_env(cgoenv))
    assert rr.rc != 0 and "big frame" in rr.out, rr


def test_cgofuzz_finds_magic_and_go_reproduces(go, cgofuzz, cgoenv, tmp_path):
    d = copy_pkg(tmp_path)
    r = run([go, "test", "-exec=" + cgofuzz, "-run=^FuzzMagic$",
             "-fuzz=^FuzzMagic$", "-fuzztime=%dx" % BUDGET, "-parallel=1",
             "."], d, go_env(cgoenv))
    assert r.rc == 1 and "magic" in r.out, r
    files = failing(d, "FuzzMagic")
    assert len(files) == 1 and "FUZZ" in testlib.read(files[0]), r
    rr = run([go, "test", "-run=FuzzMagic/" + os.path.basename(files[0]), "."],
             d, go_env(cgoenv))
    assert rr.rc == 1 and "magic" in rr.out, rr


def signal_in_c_found_and_reproduced(go, cgofuzz, cgoenv, d, target, where,
                                     head):
    """go test -fuzz -exec=cgofuzz on target, whose C crashes with a signal:
    cgofuzz says where the signal came (the regexp where), writes one input
    that starts with head, and go test -run reproduces the signal. The run
    and the reproduction, with the input's name."""
    r = run([go, "test", "-exec=" + cgofuzz, "-run=^%s$" % target,
             "-fuzz=^%s$" % target, "-fuzztime=%dx" % BUDGET, "-parallel=1",
             "."], d, go_env(cgoenv))
    assert r.rc == 1 and "SIGSEGV" in r.out, r
    assert re.search(r"the signal came in C code, in " + where, r.out), r
    files = failing(d, target)
    assert len(files) == 1, r
    assert testlib.go_bytes(testlib.read(files[0]))[:len(head)] == head, r
    name = os.path.basename(files[0])
    rr = run([go, "test", "-run=%s/%s" % (target, name), "."], d,
             go_env(cgoenv))
    assert rr.rc == 1 and "signal arrived during cgo execution" in rr.out, rr
    return r, rr, name


def test_plain_c_crash_names_the_c_function(go, cgofuzz, cgoenv, tmp_path):
    """A NULL write in C, no sanitizer: cgofuzz names the C function from
    the binary's symbol table (count_tag, inlined into cgo's wrapper), and
    go test -run reproduces the signal."""
    signal_in_c_found_and_reproduced(
        go, cgofuzz, cgoenv, copy_pkg(tmp_path), "FuzzTag",
        r"C\.count_tag \(cgo's wrapper _cgo_[0-9a-f]+_Cfunc_count_tag\+0x"
        r"[0-9a-f]+\)", b"TZ")


def test_c_crash_in_libc_names_its_c_caller(go, cgofuzz, cgoenv, tmp_path):
    """A write through NULL inside libc's memcpy, called from the package's
    copy_name (no sanitizer): the signal's pc is libc's, so only the C
    frames cgo-cc's runtime gives Go's report (csrc/runtime/cgo/cgo_stack.c)
    name the package's function. cgofuzz names it, and the report that go
    test -run prints when it reproduces lists it above the Go frames."""
    d = copy_pkg(tmp_path)
    _, rr, name = signal_in_c_found_and_reproduced(
        go, cgofuzz, cgoenv, d, "FuzzName",
        r"a library function called from copy_name\+0x[0-9a-f]+", b"NM")
    # C frames first (libc's, then copy_name's), then Go's.
    m = re.search(r"\[syscall\]:\n(?:.*\n\tpc=0x[0-9a-f]+\n)*?"
                  r"copy_name\n\tpc=0x[0-9a-f]+\n(?:.*\n\tpc=0x[0-9a-f]+\n)*"
                  r"runtime\.cgocall\(", rr.out)
    assert m and "libc" in m.group(0), rr
    # Without the runtime's traceback (its switch), Go's frames only.
    rn = run([go, "test", "-run=FuzzName/" + name, "."], d,
             dict(go_env(cgoenv), CGOFUZZ_CGO_TRACEBACK="0"))
    assert rn.rc == 1 and "copy_name\n" not in rn.out, rn


def test_c_memcmp_gate_opened_by_comparison_feedback(go, cgofuzz, cgoenv,
                                                     tmp_path):
    """memcmp(p, "cgofuzz!", 8) then a 32-bit constant: no edge leads
    there; the C side's compares reach cgofuzz's comparison feedback."""
    d = copy_pkg(tmp_path)
    exe = os.path.join(str(tmp_path), "pkg.test")
    b = run([go, "test", "-c", "-fuzz=.", "-o", exe, "."], d, go_env(cgoenv))
    assert b.rc == 0, b
    stats = os.path.join(str(tmp_path), "stats.csv")
    r = run([cgofuzz, "fuzz", "-v", "-fuzz=^FuzzGate$", "-parallel=1",
             "-fuzztime=%dx" % BUDGET, "-fuzzcachedir=" + os.path.join(d, "c"),
             "-fuzzstats=" + stats, exe], d, go_env())
    assert "and the cgo C code's compares" in r.out, r
    assert r.rc == 1 and "gate opened" in r.out, r
    # The C part of the coverage, counted apart: its counters are those of
    # the binary's C range, and some of them were hit.
    m = re.search(r"^cgofuzz: coverage: (\d+) bits, (\d+) of them in the cgo "
                  r"C code \((\d+) of its (\d+) counters hit\), (\d+) in "
                  r"Go's$", r.stderr, re.M)
    assert m, r
    total, cbits, chit, ccount, gobits = map(int, m.groups())
    s = symbols(exe)
    assert ccount == s["__stop___sancov_cntrs"] - s["__start___sancov_cntrs"]
    assert 0 < chit <= cbits < total == cbits + gobits, m.group(0)
    with open(stats) as f:
        last = f.read().splitlines()[-1].split(",")
    assert int(last[8]) == cbits and int(last[4]) == total, last
    files = failing(d, "FuzzGate")
    assert len(files) == 1, r
    data = testlib.go_bytes(testlib.read(files[0]))
    assert data[:8] == b"cgofuzz!" and data[8:12] == bytes.fromhex("0df0ed5e")


def test_c_heap_overflow_under_asan(go, cgofuzz, cgoenv, tmp_path):
    """go test -asan: the overflow in C is the finding, its report names the
    C function, and go test -asan -run reproduces it with the same frame."""
    d = copy_pkg(tmp_path)
    r = run([go, "test", "-asan", "-exec=" + cgofuzz, "-run=^FuzzRecord$",
             "-fuzz=^FuzzRecord$", "-fuzztime=%dx" % BUDGET, "-parallel=1",
             "."], d, go_env(cgoenv))
    if "-asan" in r.out and "not supported" in r.out:
        pytest.skip("go test -asan is not supported here: %s" % r.out[-300:])
    assert r.rc == 1, r
    assert "AddressSanitizer: heap-buffer-overflow" in r.out, r
    assert re.search(r"#\d+ 0x[0-9a-f]+ in parse_record ", r.out), r
    assert "cgofuzz-fast" not in r.out, r
    files = failing(d, "FuzzRecord")
    assert len(files) == 1, r
    rr = run([go, "test", "-asan", "-run=FuzzRecord/" +
              os.path.basename(files[0]), "."], d, go_env(cgoenv))
    assert rr.rc != 0, rr
    assert "AddressSanitizer: heap-buffer-overflow" in rr.out, rr
    assert re.search(r"#\d+ 0x[0-9a-f]+ in parse_record ", rr.out), rr


def asan_build(go, cgoenv, tmp_path):
    """A copy of the package and its test binary built with go test -c
    -asan -fuzz=. through the wrapper; skips where -asan is refused."""
    d = copy_pkg(tmp_path)
    exe = os.path.join(str(tmp_path), "pkg.test")
    b = run([go, "test", "-c", "-asan", "-fuzz=.", "-o", exe, "."], d,
            go_env(cgoenv))
    if "-asan" in b.out and "not supported" in b.out:
        pytest.skip("go test -asan is not supported here: %s" % b.out[-300:])
    assert b.rc == 0, b
    return d, exe


def test_asan_workers_run_the_snapshot_copy_from_a_file(go, cgofuzz, cgoenv,
                                                        tmp_path):
    """An ASan build's workers run the snapshot copy (Go's own counter loop
    is instrumented by -asan, a call per counter), from a file in cgofuzz's
    scratch directory that ASan symbolizes by; the report names the test
    binary, and nothing is left in $TMPDIR."""
    d, exe = asan_build(go, cgoenv, tmp_path)
    tmp = os.path.join(str(tmp_path), "tmp")
    os.mkdir(tmp)
    r = run([cgofuzz, "fuzz", "-v", "-fuzz=^FuzzRecord$", "-parallel=1",
             "-fuzztime=%dx" % BUDGET, "-fuzzcachedir=" + os.path.join(d, "c"),
             exe], d, go_env({"TMPDIR": tmp}))
    assert "the workers run a copy of %s" % exe in r.out, r
    assert r.rc == 1, r
    assert re.search(r"#\d+ 0x[0-9a-f]+ in parse_record ", r.out), r
    assert "(%s+0x" % exe in r.out, r  # the runtime's frames: its module
    assert "cgofuzz-fast" not in r.out, r
    assert len(failing(d, "FuzzRecord")) == 1, r
    assert os.listdir(tmp) == [], os.listdir(tmp)


def test_asan_red_zone_after_the_input(go, cgofuzz, cgoenv, tmp_path):
    """C that reads one byte past a []byte input overflows no malloc: Go
    hands the fuzz function a slice with room past its length. Under ASan
    the workers' copy poisons the bytes after each []byte input, so the
    read is found (use-after-poison, naming the C function), said to be
    such a read, and replayed by cgofuzz's warm-up; a target that appends
    to its input (its capacity is cut to its length) never trips it. The
    cgo loop (off for the red zone's own part) runs its mutants in mallocs
    of their exact size: there the read is a heap-buffer-overflow, written
    with the mutant's bytes, which the warm-up's red zone replays."""
    d, exe = asan_build(go, cgoenv, tmp_path)

    def fuzz(target, budget, cache, loop="0", seed=testlib.SEED):
        env = go_env({"CGOFUZZ_CGO_LOOP": loop})
        env["GODEBUG"] = testlib.fuzz_env(seed)["GODEBUG"]
        return run([cgofuzz, "fuzz", "-v", "-fuzz=^%s$" % target,
                    "-parallel=1", "-fuzztime=%dx" % budget,
                    "-fuzzcachedir=" + os.path.join(d, cache), exe], d, env)

    r = fuzz("FuzzSum", BUDGET, "c1")
    assert "poisons the bytes after each []byte input" in r.out, r
    assert r.rc == 1, r
    assert "AddressSanitizer: use-after-poison" in r.out, r
    assert re.search(r"#\d+ 0x[0-9a-f]+ in sum_record ", r.out), r
    assert "past the end of a []byte input" in r.out, r
    files = failing(d, "FuzzSum")
    assert len(files) == 1, r
    data = testlib.go_bytes(testlib.read(files[0]))
    assert data[:2] == b"SM", data
    # The warm-up runs the testdata input (after the seed) in the copy.
    rr = fuzz("FuzzSum", 3, "c2")
    assert rr.rc == 1 and "in sum_record " in rr.out, rr
    a = fuzz("FuzzSumAppend", 20000, "c3", loop="4")
    assert a.rc == 0, a
    assert "use-after-poison" not in a.out, a
    for f in files:
        os.remove(f)
    # Go's own execs race the loop's mutants to the record (the
    # coordinator's time slices decide which exec runs when): 16 mutants
    # per call give the loop most of the tries (it won 24 of 24 runs, 12
    # seeds, under load), and a run that Go's exec won (its use-after-poison,
    # checked above) gives way to the next pinned seed.
    for seed in (testlib.SEED, testlib.SEED + 1, testlib.SEED + 2):
        lp = fuzz("FuzzSum", BUDGET, "c4-%d" % seed, loop="16", seed=seed)
        if "in cgofuzz_cgo_loop " in lp.out:
            break
        assert lp.rc == 1 and "use-after-poison" in lp.out, lp
        for f in failing(d, "FuzzSum"):
            os.remove(f)
    assert lp.rc == 1, lp
    assert "AddressSanitizer: heap-buffer-overflow" in lp.out, lp
    assert re.search(r"#\d+ 0x[0-9a-f]+ in sum_record ", lp.out), lp
    assert re.search(r"#\d+ 0x[0-9a-f]+ in cgofuzz_cgo_loop ", lp.out), lp
    files = failing(d, "FuzzSum")
    assert len(files) == 1, lp
    assert testlib.go_bytes(testlib.read(files[0]))[:2] == b"SM", lp
    rl = fuzz("FuzzSum", 3, "c5")
    assert rl.rc == 1 and "in sum_record " in rl.out, rl


def test_cxx_magic(go, cgofuzz, cgoenv, tmp_path):
    """The C++ twin of the magic, in a package whose two C++ files share an
    inline template (pkg/cxxshared.h): each object has the template's
    counters in a COMDAT group, the linker keeps one, and cgo-cc counts that
    one (counted twice, the link's check that Go's range ends where the C
    counters end failed: bep/golibsass did not link)."""
    d = copy_pkg(tmp_path)
    r = run([go, "test", "-exec=" + cgofuzz, "-run=^FuzzCxx$",
             "-fuzz=^FuzzCxx$", "-fuzztime=%dx" % BUDGET, "-parallel=1", "."],
            d, go_env(cgoenv))
    assert r.rc == 1 and "C++ magic" in r.out, r
    files = failing(d, "FuzzCxx")
    assert len(files) == 1 and "CXX!" in testlib.read(files[0]), r


def test_cgofuzz_fuzz_packages_needs_no_setting(cgofuzz, clang, tmp_path):
    """Package mode builds with the cgo compilers itself."""
    d = copy_pkg(tmp_path)
    r = run([cgofuzz, "fuzz", "-fuzz=^FuzzMagic$", "-parallel=1",
             "-fuzztime=%dx" % BUDGET, "-fuzzcachedir=" + os.path.join(d, "c"),
             "./..."], d, go_env())
    assert r.rc == 1 and "magic" in r.out, r
    assert len(failing(d, "FuzzMagic")) == 1, r


def test_fuzzcontinue_tells_c_crashes_apart(cgofuzz, clang, tmp_path):
    """Two C bugs behind one Go call (a write through NULL in count_tag, a
    failed assert in check_rec, which dies in libc's abort): their Go frames
    are the same, their C frames are not, so -fuzzcontinue writes both,
    each once."""
    d = copy_pkg(tmp_path)
    r = run([cgofuzz, "fuzz", "-fuzz=^FuzzRecords$", "-parallel=1",
             "-fuzzcontinue", "-fuzztime=200000x",
             "-fuzzcachedir=" + os.path.join(d, "c"), "./..."], d, go_env())
    assert r.rc == 1, r
    heads = sorted(testlib.go_bytes(testlib.read(f))[:2]
                   for f in failing(d, "FuzzRecords"))
    assert heads == [b"AS", b"TZ"], (heads, r)
    assert "in C code, in check_rec+0x" not in r.out  # in libc's abort
    assert re.search(r"in a library function called from check_rec\+0x",
                     r.out), r


TAGGED_C = """//go:build withc

package tagged

// int twice(int x) { return 2 * x; }
import "C"

func Twice(x int) int { return int(C.twice(C.int(x))) }
"""
TAGGED_TEST = """package tagged

import "testing"

func FuzzT(f *testing.F) {
	f.Add(1)
	f.Fuzz(func(t *testing.T, x int) {})
}
"""


def test_cgofuzz_fuzz_says_when_c_stays_invisible(cgofuzz, tool, tmp_path):
    """With CC a gcc, package mode cannot instrument cgo C and says so in
    one line, when the packages built with the run's -tags use cgo: a
    package whose cgo file is behind a build tag gets the line with that
    tag only."""
    gcc = tool("gcc")
    d = str(tmp_path / "tagged")
    os.makedirs(d)
    for name, text in (("go.mod", "module example.com/tagged\n\ngo 1.22\n"),
                       ("c.go", TAGGED_C), ("t_test.go", TAGGED_TEST)):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    note = "the cgo packages' C code is built without coverage"
    for tags, want in ((None, False), ("withc", True)):
        r = run([cgofuzz, "fuzz", "-fuzz=^FuzzT$", "-parallel=1",
                 "-fuzztime=100x", "-fuzzcachedir=" + os.path.join(d, "c")] +
                (["-tags", tags] if tags else []) + ["./..."], d,
                go_env({"CC": gcc}))
        assert r.rc == 0, r
        assert (note in r.stderr) == want, (tags, r)
        if want:
            assert "CC is not a clang" in r.stderr, r


def test_cc_verbose_to_a_file_stays_out_of_go_output(go, cgoenv, tmp_path):
    """CGOFUZZ_CC_VERBOSE=FILE logs each compiler command there, not on
    stderr, which go's build cache would replay on every later build."""
    d = copy_pkg(tmp_path)
    log = str(tmp_path / "cc.log")
    r = run([go, "test", "-c", "-o", os.devnull, "."], d,
            go_env(dict(cgoenv, CGOFUZZ_CC_VERBOSE=log)))
    assert r.rc == 0, r
    assert "-fsanitize-coverage=inline-8bit-counters" in testlib.read(log)
    assert "fsanitize-coverage" not in r.out, r


def test_gcc_is_refused_in_one_line(go, cgoenv, tool, tmp_path):
    gcc = tool("gcc")
    d = copy_pkg(tmp_path)
    r = run([go, "test", "-c", "-o", os.devnull, "."], d,
            go_env(dict(cgoenv, CGOFUZZ_CLANG=gcc)))
    assert r.rc != 0, r
    lines = [l for l in r.out.splitlines() if "cgofuzz cgo-cc:" in l]
    assert lines and "gcc" in lines[0] and "clang" in lines[0], r


# -- a package of more than 100,000 C edges --------------------------------

# At -O0 (CGO_CFLAGS below: clang's -O2 takes minutes on this file) each
# test is about three counters: 360 x 100 gives about 108,000.
FUNCS, IFS = 360, 100
BIG_CFLAGS = "-O0 -g"


def write_big(d):
    """A generated cgo package: FUNCS functions of IFS byte tests each
    (each test a branch: a call of a non-inlined function), reached
    through a table, and a byte-by-byte magic in the file's last function,
    so its counters are the last of the C range."""
    os.makedirs(d)
    c = ["#include <stddef.h>", '#include "big.h"',
         "static volatile int big_v;",
         "__attribute__((noinline)) static int big_sink(int x) "
         "{ big_v += x; return big_v; }"]
    for f in range(FUNCS):
        c.append("static int big_f%d(const unsigned char *p, size_t n) {" % f)
        c.append("  int acc = 0;")
        for b in range(IFS):
            k = (f * 7 + b) % 32
            c.append("  if (n > %d && p[%d] == %d) acc += big_sink(%d);"
                     % (k, k, (f * 31 + b * 17) % 256, b))
        c.append("  return acc;\n}")
    c.append("static int (*const big_fns[%d])(const unsigned char *, size_t) "
             "= {%s};" % (FUNCS, ", ".join("big_f%d" % f
                                           for f in range(FUNCS))))
    c.append("int big_run(const unsigned char *p, size_t n) {\n"
             "  return n < 2 ? 0 : big_fns[(p[0] | p[1] << 8) %% %d]"
             "(p + 2, n - 2);\n}" % FUNCS)
    c.append("int big_magic(const unsigned char *p, size_t n) {\n"
             "  if (n >= 4 && p[0] == 'B') {\n    if (p[1] == 'I') {\n"
             "      if (p[2] == 'G') {\n        if (p[3] == '!') {\n"
             "          return 1;\n        }\n      }\n    }\n  }\n"
             "  return 0;\n}")
    testlib.write(os.path.join(d, "big.c"), "\n".join(c) + "\n")
    testlib.write(os.path.join(d, "big.h"),
                  "#include <stddef.h>\n"
                  "int big_run(const unsigned char *p, size_t n);\n"
                  "int big_magic(const unsigned char *p, size_t n);\n")
    testlib.write(os.path.join(d, "go.mod"),
                  "module example.com/b%s\n\ngo 1.18\n" % uuid.uuid4().hex[:12])
    testlib.write(os.path.join(d, "big.go"), """package big

// #include "big.h"
import "C"

import "unsafe"

func call(b []byte, f func(*C.uchar, C.size_t) C.int) int {
	if len(b) == 0 {
		return 0
	}
	return int(f((*C.uchar)(unsafe.Pointer(&b[0])), C.size_t(len(b))))
}

func Run(b []byte) int { return call(b, func(p *C.uchar, n C.size_t) C.int { return C.big_run(p, n) }) }

func Magic(b []byte) bool { return call(b, func(p *C.uchar, n C.size_t) C.int { return C.big_magic(p, n) }) == 1 }
""")
    testlib.write(os.path.join(d, "big_test.go"), """package big

import "testing"

// FuzzBigRun never fails (bench/cgo/cgo_cost.py times it).
func FuzzBigRun(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) { Run(b) })
}

// FuzzBigFlat runs the file's last function on a constant: after the
// seed no input adds coverage, and the last counters of the range are hit
// on every exec (bench/cgo/cgo_cost.py times it).
func FuzzBigFlat(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) { Magic([]byte("flat")) })
}

// FuzzBig reaches only the file's last function, whose counters are the
// last of the range.
func FuzzBig(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if Magic(b) {
			t.Fatalf("big magic %q", b)
		}
	})
}
""")


def section_total(obj, name="__sancov_cntrs"):
    """The bytes of every section called name (readelf -SW)."""
    out = subprocess.run(["readelf", "-SW", obj], capture_output=True,
                         text=True, check=True).stdout
    total = 0
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+"
                     r"\s+([0-9a-f]+)", line)
        if m and m.group(1) == name:
            total += int(m.group(2), 16)
    return total


def symbols(exe):
    out = subprocess.run(["nm", exe], capture_output=True, text=True,
                         check=True).stdout
    return {f[2]: int(f[0], 16) for f in (l.split() for l in out.splitlines())
            if len(f) == 3}


@pytest.fixture(scope="session")
def big(go, cgoenv, clang, tool, tmp_path_factory):
    """The generated package and its go test -c -fuzz binary (cgo-cc)."""
    tool("readelf")
    d = str(tmp_path_factory.mktemp("big") / "big")
    write_big(d)
    exe = os.path.join(os.path.dirname(d), "big.test")
    r = run([go, "test", "-c", "-fuzz=.", "-o", exe, "."], d,
            go_env(dict(cgoenv, CGO_CFLAGS=BIG_CFLAGS)), timeout=1200)
    assert r.rc == 0, r
    return d, exe


def test_big_package_counters_all_in_go_range(go, clang, big):
    """Independent count: the package's C compiled by go tool cgo and clang
    alone, with the flags go (CGO_CFLAGS, -fPIC -m64 -pthread) and cgo-cc
    use; the binary's C range, and the end of Go's, agree with it."""
    d, exe = big
    objdir = os.path.join(os.path.dirname(d), "cgo-obj")
    r = run([go, "tool", "cgo", "-objdir", objdir, "big.go"], d, go_env())
    assert r.rc == 0, r
    flags = BIG_CFLAGS.split() + ["-fPIC", "-m64", "-pthread",
             "-fsanitize-coverage=inline-8bit-counters,trace-cmp"] + [
        "-fno-builtin-" + f for f in ("memcmp", "bcmp", "strcmp", "strncmp",
                                      "strcasecmp", "strncasecmp", "strstr",
                                      "strcasestr", "memmem")]
    want = 0
    for src in [os.path.join(d, "big.c"), os.path.join(objdir, "big.cgo2.c")]:
        o = src + ".o"
        r = run([clang] + flags + ["-I", d, "-I", objdir, "-c", src, "-o", o],
                objdir, go_env())
        assert r.rc == 0, r
        want += section_total(o)
    assert want > 100000
    s = symbols(exe)
    c_counters = s["__stop___sancov_cntrs"] - s["__start___sancov_cntrs"]
    assert c_counters == want
    assert s["runtime.__stop___sancov_cntrs"] == s["__stop___sancov_cntrs"]
    assert s["internal/fuzz._ecounters"] == s["__stop___sancov_cntrs"]
    # Go's own counters come first, then the C ones, in one range.
    assert s["runtime.__start___sancov_cntrs"] < s["__start___sancov_cntrs"]


def test_big_package_magic_in_last_function_found(cgofuzz, big, tmp_path):
    d, exe = big
    work = str(tmp_path)
    r = run(testlib.fuzz_cmd(cgofuzz, exe, "FuzzBig",
                             os.path.join(work, "cache"),
                             extra=["-fuzztime=%dx" % BUDGET], parallel=1),
            work, go_env())
    assert r.rc == 1 and "big magic" in r.out, r
    files = failing(work, "FuzzBig")
    assert len(files) == 1 and "BIG!" in testlib.read(files[0]), r
