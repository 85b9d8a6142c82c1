"""ClusterFuzz's own libFuzzer engine code drives cgofuzz targets.

The engine is the PyPI package clusterfuzz==2.6.0 (what ClusterFuzz bots,
OSS-Fuzz and ClusterFuzzLite run), installed in a venv of its own by
scripts/install-deps.sh ($CGOFUZZ_VENV, else ~/.cache/cgofuzz/venv); each
engine step runs there through tests/lf/clusterfuzz/cf_engine.py, which prints
what came of it as JSON. Without the venv every case skips, naming
scripts/install-deps.sh.

Every case runs on three builds of the same planted bug (an input starting
with "FUZZ" reads one byte past its end):

  libfuzzer   tests/lf/clusterfuzz/planted.c built by clang
              -fsanitize=address,fuzzer: the real libFuzzer, the control
              that shows what the engine expects;
  cgofuzz_c   the same file built by `cgofuzz cc -fsanitize=address,fuzzer`;
  cgofuzz_go  the Go package tests/lf/clusterfuzz/gopkg (FuzzPlanted, a Go
              panic: index out of range) built by `cgofuzz compile-go-fuzzer`
              as OSS-Fuzz builds Go targets (compile_native_go_fuzzer);

and in two modes: "clusterfuzz" (the engine as a ClusterFuzz bot runs it:
new units merged back into the corpus, the arguments of ClusterFuzz's
tasks) and "clusterfuzzlite" (as ClusterFuzzLite's fuzz_target.py runs it:
-len_control=0 -seed=1337, no merge back, the target writes new units to
the corpus itself; minimize_testcase and cleanse, which ClusterFuzzLite
does not run, get its reproduce arguments). The engine's strategy
randomness is off (fuzz.get_engine sets do_strategies = False, as
ClusterFuzzLite has it; a ClusterFuzz bot may add -fork=N,
-use_value_profile=1, -max_len=N, -dict=F, which no case here passes).
ClusterFuzz mode passes no -seed: the planted bug is found in well under a
second either way.

The cases: fuzz finds the planted crash (and the engine parses the crash
file, the stats, the stack); fuzz without a bug ends at its time budget with
new corpus units; reproduce; minimize_corpus (merge); minimize_testcase;
cleanse. What is asserted is what the real libFuzzer gives (see each case),
never counts that vary from run to run.

A target that does not build fails its cases (only a missing clang, go or
venv skips)."""
import hashlib
import json
import os
import shutil
import stat

import pytest

import testlib

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "cf_engine.py")
PLANTED_C = os.path.join(HERE, "planted.c")
GOPKG = os.path.join(HERE, "gopkg")

TARGETS = ["libfuzzer", "cgofuzz_c", "cgofuzz_go"]
MODES = ["clusterfuzz", "clusterfuzzlite"]
MAGIC = b"FUZZ"
# How OSS-Fuzz compiles an ASan libFuzzer target (-O1 -g; -fsanitize=fuzzer
# is $LIB_FUZZING_ENGINE).
CFLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,fuzzer"]

# What each target's crash report says, and the crash type ClusterFuzz's
# stack analyzer files it under.
REPORT = {
    "libfuzzer": ("ERROR: AddressSanitizer: heap-buffer-overflow",
                  "Heap-buffer-overflow\nREAD 1"),
    "cgofuzz_c": ("ERROR: AddressSanitizer: heap-buffer-overflow",
                  "Heap-buffer-overflow\nREAD 1"),
    "cgofuzz_go": ("panic: runtime error: index out of range",
                   "Index out of range"),
}

# The arguments the engine's callers pass besides the ones it adds itself.
# reproduce, minimize_testcase, cleanse: a crash's reproduce_args as the
# fuzz step returns them (-timeout=25 becomes TEST_TIMEOUT 25 - 5), which is
# what ClusterFuzz stores with a testcase and ClusterFuzzLite reproduces
# with.
TESTCASE_ARGS = {
    "clusterfuzz": ["-rss_limit_mb=2560", "-timeout=20"],
    "clusterfuzzlite": ["-rss_limit_mb=2560", "-len_control=0", "-seed=1337",
                        "-timeout=20"],
}
# minimize_corpus: ClusterFuzz's corpus pruning task
# (corpus_pruning_task.get_libfuzzer_flags), ClusterFuzzLite's prune (none).
MERGE_ARGS = {
    "clusterfuzz": ["-timeout=5", "-rss_limit_mb=2560", "-max_len=5242880",
                    "-detect_leaks=1", "-use_value_profile=1"],
    "clusterfuzzlite": [],
}
# ClusterFuzz's minimize task has the sanitizer print dedup tokens, which
# libFuzzer's minimizer compares to keep the same crash.
MINIMIZE_SANITIZER_OPTIONS = {"symbolize": 1, "dedup_token_length": 3}

# Statistics the engine only has when the target printed them (the others
# are defaults the engine fills in): stat:: lines of -print_final_stats=1.
FINAL_STATS = ["number_of_executed_units", "average_exec_per_sec",
               "new_units_added", "slowest_unit_time_sec", "peak_rss_mb"]


def matrix(f):
    """Parametrizes a case over the modes and the targets."""
    f = pytest.mark.parametrize("kind", TARGETS)(f)
    return pytest.mark.parametrize("mode", MODES)(f)


# -- the engine ---------------------------------------------------------------

def venv_dir():
    return os.environ.get("CGOFUZZ_VENV") or os.path.join(
        os.path.expanduser("~"), ".cache", "cgofuzz", "venv")


@pytest.fixture(scope="session")
def cfpython():
    """The python of the venv that has clusterfuzz==2.6.0, or a skip."""
    venv = venv_dir()
    py = os.path.join(venv, "bin", "python")
    if not os.access(py, os.X_OK):
        pytest.skip("no clusterfuzz venv at %s (scripts/install-deps.sh "
                    "makes it; CGOFUZZ_VENV names another)" % venv)
    r = testlib.run([py, "-c",
                     "import os; os.environ['JOB_NAME'] = 'x'\n"
                     "import importlib.metadata as m, clusterfuzz.fuzz\n"
                     "print(m.version('clusterfuzz'))"], timeout=300)
    if r.rc != 0:
        pytest.skip("clusterfuzz does not import in the venv %s (run "
                    "scripts/install-deps.sh again): %s"
                    % (venv, r.stderr.strip().splitlines()[-1:]))
    if r.stdout.strip() != "2.6.0":
        pytest.skip("the venv %s has clusterfuzz %s, not 2.6.0 (run "
                    "scripts/install-deps.sh again)" % (venv, r.stdout.strip()))
    return py


def story(res):
    """What an engine step did, for an assertion message."""
    lines = ["op %s, mode %s" % (res.get("op"), res.get("mode"))]
    if res.get("error"):
        lines.append("engine raised " + res["error"])
        lines.append(res.get("traceback", ""))
    for r in res.get("runs", []):
        lines.append("ran (rc %s, %ss%s): %s%s" % (
            r["return_code"], r["seconds"],
            ", TIMED OUT" if r["timed_out"] else "", " ".join(r["command"]),
            " [env %s]" % r["extra_env"] if r["extra_env"] else ""))
    for k in ("return_code", "crashes", "output_file", "files", "analysis"):
        if k in res:
            lines.append("%s: %s" % (k, json.dumps(res[k])[:3000]))
    if "stats" in res:
        lines.append("stats: %s" % json.dumps(
            {k: v for k, v in res["stats"].items()
             if not k.startswith("strategy_")}))
    if "reproduce_output" in res:
        ro = res["reproduce_output"]
        lines.append("then reproduced (rc %s): %s\n%s" % (
            ro["return_code"], " ".join(ro["command"]),
            ro["output_tail"][-3000:]))
    out = res.get("output_tail") or ""
    if not out and res.get("runs"):
        out = res["runs"][-1]["output_tail"]
    lines.append("--- output (tail):\n" + out[-6000:])
    return "\n".join(lines)


def engine(cfpython, job):
    """Runs one engine step (tests/lf/clusterfuzz/cf_engine.py); its result.
    The engine raising (a time-out, a failed merge) fails the case. It runs
    in the job's workdir: the engine runs targets where it stands, and the
    real libFuzzer's at-exit leak report (-detect_leaks=0 with
    LeakSanitizer on) writes an empty crash-da39a3ee... there."""
    r = testlib.run([cfpython, DRIVER, json.dumps(job)],
                    cwd=job.get("workdir"),
                    timeout=job.get("max_time", 60) + 300)
    try:
        res = json.loads(r.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        pytest.fail("cf_engine.py gave no result\n%s" % r)
    if res.get("error"):
        pytest.fail("the engine failed: %s\n%s" % (res["error"], story(res)))
    return res


# -- the targets --------------------------------------------------------------

@pytest.fixture(scope="session")
def build(tmp_path_factory, cgofuzz, tool):
    """build(kind, bug=True) -> the path of the planted target of that kind
    (bug=False: the variant without the bug; bug="leak": the C variant whose
    bug is a memory leak), built once per session, each in a directory of
    its own (the engine's BUILD_DIR)."""
    built = {}

    def get(kind, bug=True):
        key = (kind, bug)
        if key not in built:
            built[key] = _build(tmp_path_factory, cgofuzz, tool, kind, bug)
        ok, value = built[key]
        if not ok:
            pytest.fail(value)
        return value
    return get


def _build(tmp_path_factory, cgofuzz, tool, kind, bug):
    name = {True: "planted", False: "planted_nobug",
            "leak": "planted_leak"}[bug]
    out = str(tmp_path_factory.mktemp("%s-%s" % (kind, name)))
    exe = os.path.join(out, name)
    if kind in ("libfuzzer", "cgofuzz_c"):
        clang = tool("clang")
        cc = [clang] if kind == "libfuzzer" else [cgofuzz, "cc"]
        argv = cc + CFLAGS + {True: [], False: ["-DPLANTED_NOBUG"],
                              "leak": ["-DPLANTED_LEAK"]}[bug] + [
            PLANTED_C, "-o", exe]
        r = testlib.run(argv, cwd=out)
    else:
        go = tool("go")
        # A copy: OSS-Fuzz's compile_native_go_fuzzer rewrites the package
        # (renames _test.go files), and the repository stays clean.
        pkg = os.path.join(out, "src")
        shutil.copytree(GOPKG, pkg)
        argv = [cgofuzz, "compile-go-fuzzer", ".",
                "FuzzPlanted" if bug else "FuzzNoBug", name]
        path = os.pathsep.join([os.path.dirname(go),
                                os.environ.get("PATH", "")])
        r = testlib.run(argv, cwd=pkg, env={"OUT": out, "PATH": path,
                                            "GOTOOLCHAIN": "local"})
    if r.rc != 0 or not os.path.isfile(exe):
        return False, "building the %s target %s failed (no %s)\n%s" % (
            kind, name, exe, r)
    if not os.stat(exe).st_mode & stat.S_IXUSR:
        return False, "%s is not executable" % exe
    return True, exe


# -- helpers ------------------------------------------------------------------

def dirs(tmp_path, *names):
    paths = []
    for n in names:
        p = tmp_path / n
        p.mkdir()
        paths.append(str(p))
    return paths


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return str(path)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def sha1(data):
    return hashlib.sha1(data).hexdigest()


def why(msg, res):
    """An assertion message: what is wrong, then what the step did."""
    return msg + "\n" + story(res)


def fuzz_run(res):
    """The fuzzing run among the processes the engine ran (the first: the
    merge steps and the dictionary analysis come after)."""
    runs = [r for r in res["runs"] if "-print_final_stats=1" in r["command"]]
    assert len(runs) == 1, why("not one fuzzing run", res)
    return runs[0]


def check_final_stats(res):
    """The statistics the engine reads from a fuzzing run's output, all of
    which the real libFuzzer gives (the engine fills in 0 for the others)."""
    s = res["stats"]
    # -print_final_stats=1: "stat::NAME: VALUE" lines at the end (after a
    # crash too).
    missing = [k for k in FINAL_STATS if k not in s]
    assert not missing, why("no stat::%s: lines" % ", stat::".join(missing),
                            res)
    assert s["number_of_executed_units"] > 0, why(
        "stat::number_of_executed_units is 0", res)
    assert s["peak_rss_mb"] > 0, why("stat::peak_rss_mb is 0", res)
    # "INFO: Loaded 1 modules (N inline 8-bit counters): ..." gives
    # edges_total (and, with the lines below, startup_crash_count 0).
    assert s["edges_total"] > 0, why(
        "edges_total is 0: no \"INFO: Loaded N modules (M inline 8-bit "
        "counters)\" line", res)
    # The engine counts its log lines from the first "#N INITED ..." line on
    # (then "#N NEW/REDUCE/pulse/DONE ..." lines, until "Done N runs").
    assert s["log_lines_from_engine"] > 0, why(
        "log_lines_from_engine is 0: no \"#N INITED cov: ...\" line starts "
        "the fuzzing log", res)
    assert s["startup_crash_count"] == 0, why("taken for a startup crash", res)
    # "INFO: -max_len is not provided; libFuzzer will not generate inputs
    # larger than N bytes"
    assert s["max_len"] > 0, why(
        "max_len is 0: no \"INFO: -max_len is not provided; libFuzzer will "
        "not generate inputs larger than N bytes\" line", res)


def check_report(kind, res, text, analysis):
    """The crash report is there, and ClusterFuzz's stack analyzer files it
    under the right crash type (and, for Go, state)."""
    marker, crash_type = REPORT[kind]
    assert marker in text, why("no %r in the output" % marker, res)
    assert analysis.get("crash_type") == crash_type, why(
        "ClusterFuzz's stack analyzer reads crash type %r, not %r (a Go "
        "panic must start a line: \"panic: runtime error: ...\", then "
        "\"goroutine N [running]:\" and the frames)"
        % (analysis.get("crash_type"), crash_type), res)
    if kind == "cgofuzz_go":
        # The state (what ClusterFuzz deduplicates bugs by) is the top
        # frames: the planted function, not testing's recover-and-repanic.
        assert "cfplanted.Planted" in (analysis.get("crash_state") or ""), \
            why("crash state %r does not start at the planted function"
                % analysis.get("crash_state"), res)


# -- the cases ----------------------------------------------------------------

@matrix
def test_fuzz_finds_planted_crash(cfpython, build, tmp_path, mode, kind):
    """fuzz with a 60 s budget ends early at the planted crash: the engine
    finds the crash file in the output ("Test unit written to
    <artifact_prefix>crash-<sha1>"), it exists and starts with the magic;
    the final stats are parsed; the stack analyzer reads the crash type."""
    target = build(kind)
    corpus, repro, work = dirs(tmp_path, "corpus", "reproducers", "work")
    res = engine(cfpython, dict(op="fuzz", mode=mode, target=target,
                                corpus_dir=corpus, reproducers_dir=repro,
                                workdir=work, max_time=60))
    assert res["crashes"], why("no crash found (no \"Test unit written to "
                               "...crash-...\" line)", res)
    crash = res["crashes"][0]
    name = os.path.basename(crash["input_path"])
    assert crash["exists"], why("the crash file is not there", res)
    assert os.path.dirname(crash["input_path"]) == repro and \
        name.startswith("crash-"), why(
            "the crash file is not -artifact_prefix + crash-...", res)
    assert crash["head"].encode("latin-1").startswith(MAGIC), why(
        "the crash file does not start with %r" % MAGIC, res)
    assert not res["timed_out"], why("timed out", res)
    assert res["time_executed"] < 50, why("did not stop at the crash", res)
    run = fuzz_run(res)
    # A crash is neither success (0) nor libFuzzer's interrupt (72), and the
    # engine takes 1 as libFuzzer failing ("engine encountered an error").
    assert run["return_code"] not in (0, 1, 72), why(
        "exit status %s after a crash" % run["return_code"], res)
    check_final_stats(res)
    assert res["stats"]["crash_count"] == 1, why("crash_count is not 1", res)
    check_report(kind, res, res["output_tail"], res["analysis"])
    if mode == "clusterfuzzlite":
        for a in ("-len_control=0", "-seed=1337"):
            assert a in run["command"] and a in crash["reproduce_args"], \
                why("%s missing" % a, res)


# LeakSanitizer on, as OSS-Fuzz's runner and ClusterFuzz's leak-detecting
# jobs set it (the bot's defaults here have detect_leaks=0).
LEAKS_ON = {"detect_leaks": 1}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", ["libfuzzer", "cgofuzz_c"])
def test_fuzz_finds_planted_leak(cfpython, build, tmp_path, mode, kind):
    """A harness whose only bug is a memory leak: with LeakSanitizer on,
    fuzzing ends at the leaking input, written as <artifact_prefix>leak-
    <sha1>, which the stack analyzer files as a Direct-leak; reproducing it
    fails with the leak. With -detect_leaks=0 no leak- file is written
    (libFuzzer's LeakSanitizer still reports at exit: libFuzzer then writes
    an empty crash- input, cgofuzz nothing)."""
    target = build(kind, bug="leak")
    corpus, repro, work = dirs(tmp_path, "corpus", "reproducers", "work")
    res = engine(cfpython, dict(op="fuzz", mode=mode, target=target,
                                corpus_dir=corpus, reproducers_dir=repro,
                                workdir=work, max_time=60,
                                sanitizer_options=LEAKS_ON))
    assert res["crashes"], why("no leak found", res)
    crash = res["crashes"][0]
    name = os.path.basename(crash["input_path"])
    assert crash["exists"] and name.startswith("leak-"), why(
        "the artifact is not leak-<sha1>", res)
    assert crash["head"].encode("latin-1").startswith(MAGIC), why(
        "the leak file does not start with %r" % MAGIC, res)
    assert name == "leak-" + sha1(read(crash["input_path"])), why(
        "not named by its SHA-1", res)
    assert res["time_executed"] < 50, why("did not stop at the leak", res)
    assert fuzz_run(res)["return_code"] == 77, why("not -error_exitcode", res)
    assert "ERROR: LeakSanitizer: detected memory leaks" in \
        res["output_tail"], why("no LeakSanitizer report", res)
    assert res["analysis"]["crash_type"] == "Direct-leak", why(
        "crash type %r" % res["analysis"]["crash_type"], res)

    rep = engine(cfpython, dict(op="reproduce", mode=mode, target=target,
                                input_path=crash["input_path"], workdir=work,
                                max_time=30, arguments=TESTCASE_ARGS[mode],
                                sanitizer_options=LEAKS_ON))
    assert rep["return_code"] != 0, why("the leak reproduces as 0", rep)
    assert rep["analysis"]["crash_type"] == "Direct-leak", why(
        "reproduced as %r" % rep["analysis"]["crash_type"], rep)

    corpus, repro, work = dirs(tmp_path, "corpus0", "reproducers0", "work0")
    res = engine(cfpython, dict(op="fuzz", mode=mode, target=target,
                                corpus_dir=corpus, reproducers_dir=repro,
                                workdir=work, max_time=5,
                                arguments=["-detect_leaks=0"],
                                sanitizer_options=LEAKS_ON))
    leaks = [c for c in res.get("crashes", [])
             if os.path.basename(c["input_path"]).startswith("leak-")]
    assert not leaks, why("a leak- file with -detect_leaks=0", res)
    if kind == "cgofuzz_c":
        assert res["crashes"] == [], why("a crash without one", res)


@matrix
def test_fuzz_without_bug(cfpython, build, tmp_path, mode, kind):
    """fuzz of the variant without the bug runs to its time budget
    (-max_total_time) and exits 0: no crash, execs/s and coverage parsed,
    and new units in corpus_dir, named by the SHA-1 of their contents
    (ClusterFuzz: merged back from the run's own new-units directory;
    ClusterFuzzLite: written there by the target itself)."""
    target = build(kind, bug=False)
    corpus, repro, work = dirs(tmp_path, "corpus", "reproducers", "work")
    seeds = {"seed-hello": b"hello", "seed-fu": b"FUxx"}
    for n, data in seeds.items():
        write(os.path.join(corpus, n), data)
    max_time = 5
    res = engine(cfpython, dict(op="fuzz", mode=mode, target=target,
                                corpus_dir=corpus, reproducers_dir=repro,
                                workdir=work, max_time=max_time))
    assert res["crashes"] == [], why("a crash without a bug", res)
    assert not res["timed_out"], why("timed out", res)
    run = fuzz_run(res)
    assert run["return_code"] == 0, why("exit status %s" % run["return_code"],
                                        res)
    assert "-max_total_time=%d" % max_time in run["command"], why(
        "no -max_total_time", res)
    assert res["time_executed"] >= 0.8 * max_time, why(
        "ended before its -max_total_time=%d" % max_time, res)
    check_final_stats(res)
    s = res["stats"]
    assert s["average_exec_per_sec"] > 0, why(
        "stat::average_exec_per_sec is 0", res)
    assert s["crash_count"] == 0, why("crash_count is not 0", res)
    assert res["files"]["reproducers_dir"] == {}, why(
        "files in the reproducers directory", res)

    files = res["files"]["corpus_dir"]
    for n in seeds:
        assert n in files, why("the seed %s is gone" % n, res)
    new = [n for n in files if n not in seeds]
    assert new, why("no new units in the corpus", res)
    for n in new:
        assert n == sha1(read(os.path.join(corpus, n))), why(
            "corpus file %s is not named by the SHA-1 of its contents" % n,
            res)
    assert any(read(os.path.join(corpus, n)).startswith(MAGIC)
               for n in new), why("no unit reached the FUZZ branch", res)
    merges = [r for r in res["runs"] if "-merge=1" in r["command"]]
    if mode == "clusterfuzz":
        # The merge back: "MERGE-OUTER: N new files with F new features
        # added; E new coverage edges" gives the coverage. Its two steps
        # (the seeds alone, then with the new units, sharing a
        # -merge_control_file) give initial_* and new_*; the engine takes
        # them only if the target holds the string "fuzz target overwrites
        # its const input" (as libFuzzer does), else it merges in one step.
        assert merges, why("no merge back", res)
        assert s["new_units_added"] > 0, why("new_units_added is 0", res)
        assert s["edge_coverage"] > 0 and s["feature_coverage"] > 0, why(
            "edge_coverage/feature_coverage are 0: no \"MERGE-OUTER: N new "
            "files with F new features added; E new coverage edges\" line",
            res)
        if kind == "cgofuzz_go":
            # A Go launcher cannot see a Go target overwrite its input (the
            # test binary's worker hands the function its own copy), so it
            # does not claim to: the engine merges in one step.
            assert len(merges) == 1 and not any(
                a.startswith("-merge_control_file=")
                for a in merges[0]["command"]), why(
                    "not the one-step merge", res)
            return
        assert len(merges) == 2 and all(
            any(a.startswith("-merge_control_file=") for a in r["command"])
            for r in merges), why(
                "not the two-step merge (no \"fuzz target overwrites its "
                "const input\" in the target?)", res)
        assert s["initial_edge_coverage"] > 0, why(
            "initial_edge_coverage is 0", res)
        assert s["new_edges"] > 0 and s["new_features"] > 0, why(
            "new_edges/new_features are 0", res)
    else:
        assert not merges, why("ClusterFuzzLite does not merge back", res)


@matrix
def test_reproduce(cfpython, build, tmp_path, mode, kind):
    """reproduce (-runs=100 FILE): a crashing input fails with the report,
    a harmless one exits 0."""
    target = build(kind)
    (work,) = dirs(tmp_path, "work")
    crash = write(tmp_path / "crash-planted", MAGIC + b"xy")
    res = engine(cfpython, dict(op="reproduce", mode=mode, target=target,
                                input_path=crash, workdir=work, max_time=30,
                                arguments=TESTCASE_ARGS[mode]))
    assert "-runs=100" in res["command"] and crash in res["command"], why(
        "not the reproduce command", res)
    assert res["return_code"] != 0, why("a crash exits 0", res)
    check_report(kind, res, res["output_tail"], res["analysis"])

    ok = write(tmp_path / "harmless", b"FUZ-not-quite")
    res = engine(cfpython, dict(op="reproduce", mode=mode, target=target,
                                input_path=ok, workdir=work, max_time=30,
                                arguments=TESTCASE_ARGS[mode]))
    assert res["return_code"] == 0, why("a harmless input fails", res)
    assert REPORT[kind][0] not in res["output_tail"], why(
        "a crash report for a harmless input", res)


@matrix
def test_minimize_corpus(cfpython, build, tmp_path, mode, kind):
    """minimize_corpus (-merge=1 OUT IN...): the output keeps one input per
    coverage (fewer files than went in: some are exact duplicates), named by
    the SHA-1 of their contents, and keeps the deepest input; the merge's
    last line gives edge_coverage and feature_coverage."""
    target = build(kind, bug=False)
    in1, in2, out, repro, work = dirs(tmp_path, "in1", "in2", "out",
                                      "reproducers", "work")
    inputs = {in1: {"a": b"aaaa", "b": b"bbbb", "fu": b"FUxx",
                    "fuz": b"FUZx", "hello": b"hello"},
              in2: {"a-again": b"aaaa", "fu-again": b"FUxx",
                    "c": b"cccc"}}
    for d, files in inputs.items():
        for n, data in files.items():
            write(os.path.join(d, n), data)
    n_in = sum(len(f) for f in inputs.values())
    contents = {data for f in inputs.values() for data in f.values()}
    res = engine(cfpython, dict(op="minimize_corpus", mode=mode,
                                target=target, input_dirs=[in1, in2],
                                output_dir=out, reproducers_dir=repro,
                                workdir=work, max_time=60,
                                arguments=MERGE_ARGS[mode]))
    assert "-merge=1" in res["command"], why("not a merge", res)
    files = res["files"]["output_dir"]
    assert files, why("nothing in the output directory", res)
    assert len(files) < n_in, why("nothing dropped", res)
    kept = set()
    for n in files:
        data = read(os.path.join(out, n))
        assert data in contents, why("%s: %r is no input" % (n, data), res)
        assert n == sha1(data), why(
            "%s is not named by the SHA-1 of its contents" % n, res)
        kept.add(data)
    assert len(kept) == len(files), why("duplicates kept", res)
    assert b"FUZx" in kept, why("the deepest input was dropped", res)
    assert res["stats"]["edge_coverage"] > 0 and \
        res["stats"]["feature_coverage"] > 0, why(
            "edge_coverage/feature_coverage are 0: no \"MERGE-OUTER: N new "
            "files with F new features added; E new coverage edges\" line",
            res)
    for d, f in inputs.items():
        assert sorted(os.listdir(d)) == sorted(f), why(
            "the input directory %s changed" % d, res)


@matrix
def test_minimize_testcase(cfpython, build, tmp_path, mode, kind):
    """minimize_testcase (-minimize_crash=1 -max_total_time=T
    -exact_artifact_path=OUT IN): a crash padded with junk comes out
    smaller, and still crashes the same way."""
    target = build(kind)
    (work,) = dirs(tmp_path, "work")
    data = MAGIC + bytes(range(0x41, 0x41 + 28))
    big = write(tmp_path / "crash-padded", data)
    out = str(tmp_path / "minimized")
    # The engine gives libFuzzer (max_time - 10) / 2 s: 3 s here.
    res = engine(cfpython, dict(
        op="minimize_testcase", mode=mode, target=target, input_path=big,
        output_path=out, workdir=work, max_time=16,
        arguments=TESTCASE_ARGS[mode], reproduce_output=True,
        sanitizer_options=MINIMIZE_SANITIZER_OPTIONS))
    assert "-minimize_crash=1" in res["command"], why("not -minimize_crash",
                                                      res)
    assert res["output_file"] is not None, why(
        "nothing at -exact_artifact_path", res)
    small = read(out)
    assert len(small) < len(data), why("not smaller: %r" % small, res)
    assert small.startswith(MAGIC), why("lost the magic: %r" % small, res)
    assert read(big) == data, why("the input was changed", res)
    ro = res["reproduce_output"]
    assert ro["return_code"] != 0, why("the minimized input does not crash",
                                       res)
    check_report(kind, res, ro["output_tail"], ro["analysis"])


@matrix
def test_cleanse(cfpython, build, tmp_path, mode, kind):
    """cleanse (-cleanse_crash=1 -exact_artifact_path=OUT IN): the output
    has the input's length, the bytes the crash does not need replaced
    (libFuzzer writes ' ' or 0xff there), and still crashes."""
    target = build(kind)
    (work,) = dirs(tmp_path, "work")
    junk = b"abcdefghijkl"
    data = MAGIC + junk
    big = write(tmp_path / "crash-junk", data)
    out = str(tmp_path / "cleansed")
    res = engine(cfpython, dict(
        op="cleanse", mode=mode, target=target, input_path=big,
        output_path=out, workdir=work, max_time=60,
        arguments=TESTCASE_ARGS[mode], reproduce_output=True))
    assert "-cleanse_crash=1" in res["command"], why("not -cleanse_crash",
                                                     res)
    assert res["output_file"] is not None, why(
        "nothing at -exact_artifact_path", res)
    clean = read(out)
    assert len(clean) == len(data), why("length changed: %r" % clean, res)
    assert clean.startswith(MAGIC), why("lost the magic: %r" % clean, res)
    assert clean[len(MAGIC):] != junk, why("nothing cleansed", res)
    assert read(big) == data, why("the input was changed", res)
    ro = res["reproduce_output"]
    assert ro["return_code"] != 0, why("the cleansed input does not crash",
                                       res)
    check_report(kind, res, ro["output_tail"], ro["analysis"])
