"""Every way a C target can die mid-fuzzing, under cgofuzz's coordinator via
-test.fuzz self-coordination (the binary is its own coordinator): the
failing input written to testdata must be the exact input that killed the
worker (crash.c fails on inputs starting with 'X', at least 3 bytes; the
seed "hello" is harmless, so the crash happens mid-fuzzing). Also: `cgofuzz
fuzz` drives a C target binary, an ASan libFuzzer harness built by `cgofuzz
cc` is recorded exactly, and the CMake package builds a fuzz target whose
seed corpus is a ctest test. Every fuzzing run has a pinned seed and an
exec budget far above what the seed needs."""
import os

import pytest

import testlib
from testlib import go_bytes, run

BUDGET = 1000000

# mode -> (text the report must contain, extra flags)
MODES = {
    "fatal": ("planted failure", ()),
    "segv": ("", ()),
    "abort": ("signal: aborted", ()),
    "exit0": ("exit status 2", ()),
    "exit3": ("exit status 3", ()),
    "stack": ("", ()),
    "hang": ("exit status 2", ("-test.fuzztimeout=1s",)),
    "oom": ("exit status 2", ("-test.fuzzrsslimitmb=200",)),
}
# Modes whose recorded input must fail again in regression mode (a hang or
# an OOM is a limit of the fuzzing worker; exit(0) ends a regression run
# with status 0).
REPRODUCE = ["fatal", "segv", "abort", "exit3", "stack"]


def recorded(r, d):
    """The []byte value of the failing input a run wrote, or None."""
    path = testlib.failing_input(r.stdout)
    if path is None:
        return None, None
    with open(os.path.join(d, path), encoding="utf-8") as f:
        return path, go_bytes(f.read())


@pytest.fixture(scope="module")
def crash_runs(target, tmp_path_factory):
    """crash_runs(mode) -> (run, directory, path, value): FuzzCrash fuzzed
    once per mode with CRASH_MODE=mode, one worker, no minimization."""
    exe = target("crash")
    done = {}

    def get(mode):
        if mode not in done:
            d = str(tmp_path_factory.mktemp("crash-" + mode))
            r = testlib.fuzz(exe, "FuzzCrash", d, BUDGET,
                             extra=["-test.fuzzminimizetime=0"] +
                             list(MODES[mode][1]),
                             env={"CRASH_MODE": mode})
            done[mode] = (r, d) + recorded(r, d)
        return done[mode]
    return get


@pytest.mark.parametrize("mode", list(MODES))
def test_crash_recorded_with_exact_input(crash_runs, mode):
    """The coordinator reports the failure (exit 1, --- FAIL, the mode's
    message) and writes the exact input that killed the worker."""
    r, _, _, data = crash_runs(mode)
    want = MODES[mode][0]
    assert (r.rc == 1 and "--- FAIL: FuzzCrash" in r.stdout and
            want in r.out), r
    assert data is not None and len(data) >= 3 and data[:1] == b"X", (
        "recorded %r\n%s" % (data, r))


@pytest.mark.parametrize("mode", REPRODUCE)
def test_crash_input_reproduces(target, crash_runs, mode):
    """The written input fails again in regression mode."""
    r, d, path, _ = crash_runs(mode)
    assert path is not None, r
    rr = run([target("crash"), "-test.run=FuzzCrash/" +
              os.path.basename(path)], cwd=d, env={"CRASH_MODE": mode})
    assert rr.rc != 0, rr


def test_cgofuzz_fuzz_drives_c_target(cgofuzz, target, tmp_path):
    """`cgofuzz fuzz` on a C target binary: discovery (the binary run with
    -test.fuzz and argv[0] = cgofuzz's fake worker), then its coordinator,
    finds the bug and writes the input."""
    r = run([cgofuzz, "fuzz", "-fuzz=FuzzBytes", "-fuzztime=%dx" % BUDGET,
             "-parallel=1", "-fuzzminimizetime=0",
             "-fuzzcachedir=%s" % (tmp_path / "cache"), target("typed")],
            cwd=tmp_path, env=testlib.fuzz_env())
    assert (r.rc == 1 and "found the bug" in r.stdout and
            "Failing input written" in r.stdout), r


@pytest.fixture(scope="module")
def asan_run(target, tmp_path_factory):
    """The libFuzzer harness built by `cgofuzz cc -fsanitize=address,fuzzer`
    (a heap overflow on inputs starting with 'X'), fuzzed:
    (run, directory, path, value)."""
    d = str(tmp_path_factory.mktemp("asan"))
    r = testlib.fuzz(target("asan"), ".", d, BUDGET,
                     extra=["-test.fuzzminimizetime=0"])
    return (r, d) + recorded(r, d)


def test_asan_report_exact_input(asan_run):
    """ASan's report ends the worker; the recorded input is still exact."""
    r, _, _, data = asan_run
    assert (r.rc == 1 and data is not None and len(data) >= 3 and
            data[:1] == b"X"), "recorded %r\n%s" % (data, r)


def test_asan_report_reproduces(target, asan_run):
    """... and ASan reports the heap overflow again in regression mode."""
    r, d, path, _ = asan_run
    assert path is not None, r
    rr = run([target("asan")], cwd=d)
    assert rr.rc != 0 and "heap-buffer-overflow" in rr.stderr, rr


@pytest.fixture(scope="module")
def cmake_pkg(tool, target, source_dir, build_dir, tmp_path_factory):
    """tests/runtime/worker/cmake_pkg configured (find_package(cgofuzz)), built and
    its ctest run: (the last step's run, build directory, all output)."""
    cmake, ctest = tool("cmake"), tool("ctest")
    target("typed")  # clang is there and the worker targets are built
    d = str(tmp_path_factory.mktemp("cmake-pkg"))
    steps = [[cmake, "-S", os.path.join(source_dir, "tests/runtime/worker/cmake_pkg"),
              "-B", d, "-DCMAKE_C_COMPILER=clang",
              "-Dcgofuzz_DIR=" + os.path.join(source_dir, "cmake"),
              "-DCGOFUZZ_BUILD_DIR=" + build_dir],
             [cmake, "--build", d],
             [ctest, "--test-dir", d, "--output-on-failure"]]
    log = []
    for st in steps:
        r = run(st)
        log.append(str(r))
        if r.rc != 0:
            break
    return r, d, "\n".join(log)


def test_cmake_package_seed_corpus_ctest(cmake_pkg):
    """find_package(cgofuzz) + cgofuzz_add_fuzz_target: the project
    configures and builds, and its seed corpus passes as a ctest test."""
    r, _, log = cmake_pkg
    assert r.rc == 0 and "100% tests passed" in r.stdout, log


def test_cmake_package_target_is_c_fuzz_target(cmake_pkg):
    """The target the package built is a C fuzz target (a libFuzzer
    harness, listed as FuzzLibFuzzer)."""
    r, d, log = cmake_pkg
    assert r.rc == 0, log
    rr = run([os.path.join(d, "pkg_fuzz"), "-test.list=."], cwd=d)
    assert rr.stdout == "FuzzLibFuzzer\n", rr
