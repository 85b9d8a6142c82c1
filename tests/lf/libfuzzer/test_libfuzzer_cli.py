"""libFuzzer's command line on `cgofuzz cc` binaries (csrc/lf).

A C target binary given libFuzzer's flags or corpus paths must behave as a
libFuzzer binary: the lines, files and exit codes that ClusterFuzz,
OSS-Fuzz and ClusterFuzzLite read (tests/lf/clusterfuzz drives the real engine
code; this suite checks each behaviour directly). Runs are bounded by
-runs and pinned by -seed; assertions are what must hold (found, written,
named by SHA-1, exit status), never counts that vary.
"""
import hashlib
import os
import re
import signal

import pytest

import testlib

HERE = os.path.dirname(os.path.abspath(__file__))
FIND = "-runs=3000000"  # the planted bugs are found in ~20k execs


@pytest.fixture(scope="session")
def build(cgofuzz, tool, tmp_path_factory):
    """build(variant) -> path of tests/lf/libfuzzer/harness.c built with cgofuzz cc."""
    tool("clang")
    out = tmp_path_factory.mktemp("lf-bin")
    built = {}

    def get(variant=""):
        if variant not in built:
            exe = str(out / ("harness" + (("_" + variant) if variant else "")))
            cmd = [cgofuzz, "cc", "-g", "-O1", "-fsanitize=address,fuzzer",
                   os.path.join(HERE, "harness.c"), "-o", exe]
            if variant:
                cmd.insert(2, "-D" + variant.upper())
            r = testlib.run(cmd)
            assert r.rc == 0, r
            built[variant] = exe
        return built[variant]
    return get


@pytest.fixture(scope="session")
def libfuzzer(tool, tmp_path_factory):
    """libfuzzer(variant) -> path of tests/lf/libfuzzer/harness.c built by clang
    -fsanitize=address,fuzzer: the real libFuzzer, whose behaviour the
    cgofuzz build is held to."""
    clang = tool("clang")
    out = tmp_path_factory.mktemp("lf-real")
    built = {}

    def get(variant):
        if variant not in built:
            exe = str(out / ("harness_" + variant))
            r = testlib.run([clang, "-g", "-O1", "-fsanitize=address,fuzzer",
                             "-D" + variant.upper(),
                             os.path.join(HERE, "harness.c"), "-o", exe])
            assert r.rc == 0, r
            built[variant] = exe
        return built[variant]
    return get


def lf(exe, *args, cwd=None, asan_exitcode=77, timeout=testlib.HANG_GUARD,
       leaks=False):
    env = {"ASAN_OPTIONS": "exitcode=%d:detect_leaks=%d" % (asan_exitcode,
                                                            leaks)}
    return testlib.run([exe] + [str(a) for a in args], cwd=cwd,
                       env=env, timeout=timeout)


def sha1(b):
    return hashlib.sha1(b).hexdigest()


def artifact(result, kind):
    m = re.search(r"Test unit written to (\S*%s-([0-9a-f]{40}))" % kind,
                  result.stderr)
    assert m, result
    return m.group(1), m.group(2)


def test_fuzz_finds_the_crash_and_writes_it(build, tmp_path):
    exe = build()
    corpus, art = tmp_path / "new", tmp_path / "art"
    corpus.mkdir()
    art.mkdir()
    r = lf(exe, "-seed=1", "-timeout=25", "-rss_limit_mb=2560",
           "-artifact_prefix=%s/" % art, FIND, "-print_final_stats=1", corpus)
    assert r.rc == 77, r  # ASan's exitcode, as ClusterFuzz sets it
    assert re.search(r"^INFO: Loaded 1 modules\s+\((\d+) inline 8-bit "
                     r"counters\)", r.stderr, re.M), r
    assert int(re.search(r"\((\d+) inline", r.stderr).group(1)) > 0
    assert re.search(r"^#\d+\s+INITED cov: \d+", r.stderr, re.M), r
    assert "ERROR: AddressSanitizer: heap-buffer-overflow" in r.stderr, r
    assert "in LLVMFuzzerTestOneInput" in r.stderr, r  # symbolized frames
    path, digest = artifact(r, "crash")
    data = open(path, "rb").read()
    assert data.startswith(b"FUZZ"), data
    assert sha1(data) == digest
    for stat in ("number_of_executed_units", "average_exec_per_sec",
                 "new_units_added", "peak_rss_mb"):
        assert re.search(r"^stat::%s:\s+\d+$" % stat, r.stderr, re.M), stat
    # The inputs that led there were written raw, named by their SHA-1.
    files = list(corpus.iterdir())
    assert files, r
    for f in files:
        assert f.name == sha1(f.read_bytes())


def test_fuzz_without_a_bug_writes_only_the_first_directory(build, tmp_path):
    exe = build("nobug")
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (second / "seed").write_bytes(b"NO")
    (second / "go-seed").write_text('go test fuzz v1\n[]byte("NON")\n')
    r = lf(exe, "-seed=2", "-runs=20000", "-timeout=25", first, second)
    assert r.rc == 0, r
    assert re.search(r"^Done \d+ runs in \d+ second", r.stderr, re.M), r
    assert "INFO: 2 files found in %s" % second in r.stderr, r
    assert sorted(p.name for p in second.iterdir()) == ["go-seed", "seed"]
    assert list(first.iterdir()), r
    assert "Test unit written" not in r.stderr


@pytest.mark.parametrize("mask", [0, 1, 2, 3])
def test_close_fd_mask(build, tmp_path, mask):
    """-close_fd_mask=1 silences the target's stdout, 2 its stderr, 3 both,
    as libFuzzer does, both when fuzzing and when running files."""
    exe = build("noisy")
    f = tmp_path / "input"
    f.write_bytes(b"NO")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for args in (["-runs=50", "-seed=1", corpus], ["-runs=2", f]):
        r = lf(exe, "-close_fd_mask=%d" % mask, *args)
        assert r.rc == 0, r
        out = r.stdout + r.stderr
        assert ("noisy target: stdout" in out) == (not mask & 1), (mask, r)
        assert ("noisy target: stderr" in out) == (not mask & 2), (mask, r)


def test_running_files_reproduces(build, tmp_path):
    exe = build()
    crash, ok = tmp_path / "crash", tmp_path / "ok"
    crash.write_bytes(b"FUZZ and more")
    ok.write_bytes(b"FUZ")
    r = lf(exe, "-runs=100", crash)
    assert r.rc == 77, r
    assert "heap-buffer-overflow" in r.stderr, r
    r = lf(exe, "-runs=100", ok)
    assert r.rc == 0, r
    assert "Executed %s" % ok in r.stderr, r
    # A go test fuzz v1 file is taken as it is.
    gofile = tmp_path / "gofile"
    gofile.write_text('go test fuzz v1\n[]byte("FUZZ!")\n')
    r = lf(exe, gofile, asan_exitcode=23)
    assert r.rc == 23, r


def test_merge_keeps_inputs_with_new_coverage(build, tmp_path):
    exe = build("nobug")
    out, a, b = tmp_path / "out", tmp_path / "a", tmp_path / "b"
    for d in (out, a, b):
        d.mkdir()
    for name, data in [("x1", b"N"), ("x2", b"NO"), ("x3", b"NON"),
                       ("x4", b"Q"), ("x5", b"NOx")]:
        (a / name).write_bytes(data)
    (b / "dup").write_bytes(b"NON")
    r = lf(exe, "-merge=1", "-merge_control_file=%s" % (tmp_path / "mcf"),
           "-timeout=25", out, a, b)
    assert r.rc == 0, r
    m = re.search(r"MERGE-OUTER: (\d+) new files with (\d+) new features "
                  r"added; (\d+) new coverage edges", r.stderr)
    assert m, r
    kept = {p.read_bytes() for p in out.iterdir()}
    assert int(m.group(1)) == len(kept) > 0
    assert int(m.group(2)) > 0 and int(m.group(3)) > 0
    assert b"NON" in kept  # the only input reaching the third comparison
    assert len(kept) < 6
    for p in out.iterdir():
        assert p.name == sha1(p.read_bytes())


def test_merge_skips_a_crashing_input(build, tmp_path):
    exe = build()
    out, a = tmp_path / "out", tmp_path / "a"
    out.mkdir()
    a.mkdir()
    (a / "crash").write_bytes(b"FUZZ")
    (a / "fine").write_bytes(b"FU")
    r = lf(exe, "-merge=1", out, a)
    assert r.rc == 0, r
    assert "MERGE-INNER: crash on %s" % (a / "crash") in r.stderr, r
    assert {p.read_bytes() for p in out.iterdir()} == {b"FU"}


def test_minimize_crash(build, tmp_path):
    exe = build()
    crash, out = tmp_path / "crash", tmp_path / "min"
    crash.write_bytes(b"FUZZ" + b"junk" * 20)
    r = lf(exe, "-minimize_crash=1", "-runs=5000", "-max_total_time=60",
           "-exact_artifact_path=%s" % out, crash)
    assert r.rc == 0, r
    data = out.read_bytes()
    assert data.startswith(b"FUZZ") and len(data) < 84, data
    assert lf(exe, out).rc == 77


def test_cleanse_crash(build, tmp_path):
    exe = build()
    crash, out = tmp_path / "crash", tmp_path / "clean"
    crash.write_bytes(b"FUZZsecret")
    r = lf(exe, "-cleanse_crash=1", "-exact_artifact_path=%s" % out, crash)
    assert r.rc == 0, r
    data = out.read_bytes()
    assert len(data) == 10 and data[:4] == b"FUZZ", data
    assert all(c in (0x20, 0xff) for c in data[4:]), data
    assert lf(exe, out).rc == 77


def test_timeout(build, tmp_path):
    exe = build("hang")
    art = tmp_path / "art"
    art.mkdir()
    hang = tmp_path / "hang"
    hang.write_bytes(b"HANG")
    r = lf(exe, "-timeout=1", hang)
    assert r.rc == 70, r
    assert "ERROR: libFuzzer: timeout after" in r.stderr, r
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "near").write_bytes(b"HAN")
    r = lf(exe, "-seed=3", "-timeout=1", FIND, "-artifact_prefix=%s/" % art,
           corpus)
    assert r.rc == 70, r
    path, _ = artifact(r, "timeout")
    assert open(path, "rb").read().startswith(b"HANG")


def test_oom(build, tmp_path):
    exe = build("oom")
    art = tmp_path / "art"
    art.mkdir()
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "near").write_bytes(b"OOM")
    r = lf(exe, "-seed=4", "-rss_limit_mb=200", FIND,
           "-artifact_prefix=%s/" % art, corpus)
    assert r.rc == 71, r
    assert "ERROR: libFuzzer: out-of-memory" in r.stderr, r
    path, _ = artifact(r, "oom")
    assert open(path, "rb").read().startswith(b"OOM!")


def test_leak_as_libfuzzer_reports_it(build, libfuzzer, tmp_path):
    """-detect_leaks=1 (the default with LeakSanitizer on): an input that
    leaks is checked after it runs, LeakSanitizer's report is printed, the
    input is written as leak-<sha1> and the exit status is -error_exitcode;
    a leaking file run on its own is reported too; -detect_leaks=0 stops the
    per-input check. The real libFuzzer on the same harness, same flags,
    is the reference for each."""
    for name, exe in (("libFuzzer", libfuzzer("leak")),
                      ("cgofuzz", build("leak"))):
        art = tmp_path / name / "art"
        art.mkdir(parents=True)
        corpus = tmp_path / name / "c"
        corpus.mkdir()
        (corpus / "near").write_bytes(b"LEA")
        r = lf(exe, "-seed=5", FIND, "-artifact_prefix=%s/" % art, corpus,
               leaks=True)
        assert r.rc == 77, (name, r)
        assert "ERROR: LeakSanitizer: detected memory leaks" in r.stderr, (
            name, r)
        assert "Direct leak of 32 byte(s) in 1 object(s)" in r.stderr, (
            name, r)
        assert "INFO: to ignore leaks on libFuzzer side use " \
            "-detect_leaks=0." in r.stderr, (name, r)
        path, digest = artifact(r, "leak")
        data = open(path, "rb").read()
        assert data.startswith(b"LEAK") and sha1(data) == digest, (name, data)

        r = lf(exe, "-runs=10", path, leaks=True)
        assert r.rc == 77, (name, r)
        assert "INFO: a leak has been found in the initial corpus." in \
            r.stderr, (name, r)
        assert "Direct leak of 32 byte(s)" in r.stderr, (name, r)

        # Off on both sides: libFuzzer's flag, and LeakSanitizer's own at
        # exit (ClusterFuzz turns both off together).
        quiet = tmp_path / name / "quiet"
        quiet.mkdir()
        r = lf(exe, "-detect_leaks=0", "-runs=10", path)
        assert r.rc == 0 and "LeakSanitizer" not in r.stderr, (name, r)
        r = lf(exe, "-detect_leaks=0", "-seed=5", "-runs=20000",
               "-artifact_prefix=%s/" % quiet, corpus)
        assert r.rc == 0 and "Test unit written" not in r.stderr, (name, r)
        assert not list(quiet.iterdir()), (name, r)


def test_fork_ignore_crashes_goes_on(build, libfuzzer, tmp_path):
    """-fork=1 -ignore_crashes=1: a crash is written and fuzzing goes on, so
    a harness with two bugs in two functions gets both written (cgofuzz
    writes each failure site once; libFuzzer each crashing job's input);
    the exit status is still a failure, and the last line says so. Without
    -ignore_crashes the first crash ends the run. The real libFuzzer on the
    same harness is the reference.

    The starting corpus differs as the engines treat it: libFuzzer's fork
    mode first merges it, leaving out inputs that crash, so it gets inputs
    one byte from each bug and finds both (its jobs run one after another
    from -seed; 300000 runs are enough); cgofuzz runs its starting inputs as
    they are, so it gets the two crashing inputs themselves, writes both,
    and goes on to -runs from the third (a starting input that fails is
    not fuzzed further)."""
    cases = (("libFuzzer", libfuzzer("two"), [b"FUZ", b"BUG", b"none"]),
             ("cgofuzz", build("two"), [b"FUZZ", b"BUGS", b"none"]))
    for name, exe, seeds in cases:
        art = tmp_path / name / "art"
        art.mkdir(parents=True)
        corpus = tmp_path / name / "c"
        corpus.mkdir()
        for i, seed in enumerate(seeds):
            (corpus / ("seed%d" % i)).write_bytes(seed)
        r = lf(exe, "-fork=1", "-ignore_crashes=1", "-seed=1", "-runs=300000",
               "-print_final_stats=1", "-artifact_prefix=%s/" % art, corpus)
        assert r.rc not in (0, None), (name, r)
        heads = {p.read_bytes()[:4] for p in art.iterdir()
                 if p.name.startswith("crash-")}
        assert heads == {b"FUZZ", b"BUGS"}, (name, heads, r)
        assert re.search(r"^INFO: exiting: [1-9]\d* time: \d+s$", r.stderr,
                         re.M), (name, r)
        if name == "cgofuzz":  # it went on to -runs after both
            assert re.search(r"^stat::number_of_executed_units:\s+300000$",
                             r.stderr, re.M), r

        once = tmp_path / name / "once"
        once.mkdir()
        r = lf(exe, "-fork=1", "-seed=1", "-runs=300000",
               "-artifact_prefix=%s/" % once, corpus)
        assert r.rc not in (0, None), (name, r)
        assert len([p for p in once.iterdir()
                    if p.name.startswith("crash-")]) == 1, (name, r)


def test_malloc_limit(build, libfuzzer, tmp_path):
    """-malloc_limit_mb=N: one malloc of N MB or more is an OOM at once,
    reported with the stack of the call (the harness allocates 16 MB
    blocks), as an oom- artifact when fuzzing and exit status 71 either
    way; the same as the real libFuzzer."""
    for name, exe in (("libFuzzer", libfuzzer("oom")),
                      ("cgofuzz", build("oom"))):
        art = tmp_path / name / "art"
        art.mkdir(parents=True)
        f = tmp_path / name / "input"
        f.write_bytes(b"OOM!")
        r = lf(exe, "-malloc_limit_mb=10", f)
        assert r.rc == 71, (name, r)
        assert "ERROR: libFuzzer: out-of-memory (malloc(16777216))" in \
            r.stderr, (name, r)
        assert "in LLVMFuzzerTestOneInput" in r.stderr, (name, r)
        corpus = tmp_path / name / "c"
        corpus.mkdir()
        (corpus / "near").write_bytes(b"OOM")
        r = lf(exe, "-malloc_limit_mb=10", "-seed=4", FIND,
               "-artifact_prefix=%s/" % art, corpus)
        assert r.rc == 71, (name, r)
        assert "SUMMARY: libFuzzer: out-of-memory" in r.stderr, (name, r)
        path, _ = artifact(r, "oom")
        assert open(path, "rb").read().startswith(b"OOM!"), name


@pytest.mark.parametrize("seed_input,args", [
    pytest.param(b"SLOW", ["-runs=2"], id="starting-input"),
    pytest.param(b"SLOX", ["-seed=7", FIND], id="found-fuzzing"),
])
def test_slow_unit(build, libfuzzer, tmp_path, seed_input, args):
    """-report_slow_units=1: an input that runs 1.2 s is reported as
    libFuzzer reports it ("Slowest unit: 1 s:", a slow-unit-<sha1> file),
    whether it is a starting input or one found by fuzzing, and
    -print_final_stats=1 gives it as slowest_unit_time_sec; with the
    default (10 s) nothing, and 0. The same as the real libFuzzer."""
    for name, exe in (("libFuzzer", libfuzzer("slow")),
                      ("cgofuzz", build("slow"))):
        for flag, want in (("-report_slow_units=1", 1), (None, 0)):
            d = tmp_path / name / (flag or "default")
            art = d / "art"
            corpus = d / "c"
            art.mkdir(parents=True)
            corpus.mkdir()
            (corpus / "seed").write_bytes(seed_input)
            r = lf(exe, *([flag] if flag else []), *args,
                   "-print_final_stats=1", "-artifact_prefix=%s/" % art,
                   corpus)
            assert r.rc == 0, (name, r)
            assert ("stat::slowest_unit_time_sec:    %d\n" % want) in \
                r.stderr, (name, r)
            slow = sorted(os.listdir(art))
            if not want:
                assert "Slowest unit" not in r.stderr, (name, r)
                assert slow == [], (name, slow)
                continue
            assert r.stderr.count("Slowest unit: 1 s:\n") == 1, (name, r)
            path, digest = artifact(r, "slow-unit")
            assert digest == sha1(b"SLOW"), (name, r)
            assert open(path, "rb").read() == b"SLOW", name
            assert slow == ["slow-unit-" + sha1(b"SLOW")], (name, slow)


def test_fork_ignore_crashes_goes_on_through_many(build, libfuzzer,
                                                 tmp_path):
    """-fork=1 -ignore_crashes=1 on a harness where most mutants crash
    (CRASHY): the run goes on through crash after crash, as libFuzzer's
    fork mode does (its jobs cost a process each, so it gets -runs=100);
    cgofuzz reaches -runs=3000 (about a hundred crashes, most in a row).
    It gave up after ten deaths without a good reply before, a rule meant
    for workers that cannot start."""
    for name, exe, runs in (("libFuzzer", libfuzzer("crashy"), 100),
                            ("cgofuzz", build("crashy"), 3000)):
        art = tmp_path / name / "art"
        art.mkdir(parents=True)
        corpus = tmp_path / name / "c"
        corpus.mkdir()
        (corpus / "seed").write_bytes(b"none")
        r = lf(exe, "-fork=1", "-ignore_crashes=1", "-seed=1",
               "-runs=%d" % runs, "-print_final_stats=1",
               "-artifact_prefix=%s/" % art, corpus)
        assert r.rc not in (0, None), (name, r)
        assert "giving up" not in r.stderr, (name, r)
        crashes = [p for p in art.iterdir() if p.name.startswith("crash-")]
        assert crashes, (name, r)
        assert re.search(r"^INFO: exiting: [1-9]\d* time: \d+s$", r.stderr,
                         re.M), (name, r)
        # Both write the one crash site once (libFuzzer's fork mode keeps
        # one input per crash signature too).
        assert len(crashes) == 1, (name, crashes, r)
        if name == "cgofuzz":
            assert re.search(r"^stat::number_of_executed_units:\s+3000$",
                             r.stderr, re.M), r


def test_jobs(build, libfuzzer, tmp_path):
    """-jobs=N -workers=W: N whole fuzzing runs, W at a time, each with the
    command line less -jobs and -workers, its output in fuzz-<i>.log of the
    working directory; each command is printed, and each job's end with its
    exit code and log; exit 1 if a job failed. The same as the real
    libFuzzer, on a harness without a bug and on one with."""
    for name, exe, fail in (("libFuzzer", libfuzzer("nobug"), False),
                            ("cgofuzz", build("nobug"), False),
                            ("libFuzzer-bug", libfuzzer("two"), True),
                            ("cgofuzz-bug", build("two"), True)):
        d = tmp_path / name
        corpus = d / "c"
        corpus.mkdir(parents=True)
        r = lf(exe, "-jobs=3", "-workers=2", "-seed=1", "-runs=300000",
               corpus, cwd=d)
        assert r.rc == (1 if fail else 0), (name, r)
        for i in range(3):
            log = d / ("fuzz-%d.log" % i)
            assert log.is_file(), (name, i, r)
            assert re.search(r"^\S+ -seed=1 -runs=300000 %s >fuzz-%d\.log "
                             r"2>&1$" % (re.escape(str(corpus)), i),
                             r.stderr, re.M), (name, i, r)
            m = re.search(r"^=+ Job %d exited with exit code (\d+) =+$" % i,
                          r.stderr, re.M)
            assert m and (int(m.group(1)) != 0) == fail, (name, i, r)
            text = log.read_text(errors="replace")
            if fail:
                assert "Test unit written to ./crash-" in text, (name, text)
            else:
                assert "Done 300000 runs" in text, (name, text)
        assert "-jobs=" not in r.stderr and "-workers=" not in r.stderr


# OSS-Fuzz's SANITIZER=coverage flags (infra/base-images/base-builder).
COVERAGE_CFLAGS = ["-O1", "-fno-omit-frame-pointer", "-gline-tables-only",
                   "-fprofile-instr-generate", "-fcoverage-mapping"]
EXAMPLE_C = os.path.join(HERE, "..", "..", "..", "examples", "clusterfuzzlite",
                         "c-library")


def test_coverage_build(cgofuzz, tool, tmp_path, sanitized):
    """A SANITIZER=coverage build of the example C target (OSS-Fuzz's
    flags, -fsanitize=fuzzer as $LIB_FUZZING_ENGINE) run as OSS-Fuzz's
    coverage script runs it (-runs=0 on a corpus, LLVM_PROFILE_FILE with
    %1m so every process merges into one file) gives an llvm-cov report
    that covers the same lines of the library as the real libFuzzer's
    build on the same corpus: every corpus input ran, in the workers too."""
    clang = tool("clang")
    profdata, cov = tool("llvm-profdata-14"), tool("llvm-cov-14")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "one").write_bytes(b"A\x03abc")
    (corpus / "two").write_bytes(b"X\x02hiB\x01z")
    (corpus / "short").write_bytes(b"A\x09")
    src = [os.path.join(EXAMPLE_C, "tlv.c"),
           os.path.join(EXAMPLE_C, "fuzz", "tlv_fuzzer.c")]
    covered = {}
    # The ASan+UBSan build's runtime libraries need those runtimes linked.
    cg = [cgofuzz, "cc"] + (["-fsanitize=address,undefined"] if sanitized
                            else [])
    for name, cc in (("libFuzzer", [clang]), ("cgofuzz", cg)):
        d = tmp_path / name
        dumps = d / "dumps"
        dumps.mkdir(parents=True)
        exe = str(d / "tlv_fuzzer")
        r = testlib.run(cc + COVERAGE_CFLAGS + ["-fsanitize=fuzzer",
                                                "-I" + EXAMPLE_C] + src +
                        ["-o", exe])
        assert r.rc == 0, (name, r)
        r = testlib.run([exe, "-runs=0", str(corpus)], cwd=str(d),
                        env={"LLVM_PROFILE_FILE": str(dumps /
                                                      "tlv.%1m.profraw")})
        assert r.rc == 0, (name, r)
        raws = [str(p) for p in dumps.iterdir()]
        assert raws, (name, r)
        merged = str(d / "tlv.profdata")
        r = testlib.run([profdata, "merge", "-sparse"] + raws + ["-o",
                                                                 merged])
        assert r.rc == 0, (name, r)
        r = testlib.run([cov, "export", "-format=lcov", exe,
                         "-instr-profile=" + merged, src[0]])
        assert r.rc == 0, (name, r)
        covered[name] = {int(m.group(1)) for m in re.finditer(
            r"^DA:(\d+),([1-9]\d*)$", r.stdout, re.M)}
        r = testlib.run([cov, "report", exe, "-instr-profile=" + merged,
                         src[0]])
        assert r.rc == 0 and "tlv.c" in r.stdout, (name, r)
    assert covered["cgofuzz"], covered
    assert covered["cgofuzz"] == covered["libFuzzer"], covered


def test_flags(build, tmp_path):
    exe = build("nobug")
    r = lf(exe, "-help=1")
    assert r.rc == 0 and "max_total_time" in r.stderr, r
    r = lf(exe, "-no_such_flag=1", "-runs=10", tmp_path)
    assert r.rc == 0, r
    assert "WARNING: unrecognized flag '-no_such_flag=1'" in r.stderr, r
    # Value profile reaches the workers (which would reject an unknown flag).
    r = lf(exe, "-use_value_profile=1", "-runs=10000", tmp_path)
    assert r.rc == 0 and "Done" in r.stderr, r
    r = lf(exe, "-runs=ten", tmp_path)
    assert r.rc == 1 and "-runs" in r.stderr, r
    # Go's flags still make it a Go test binary.
    r = lf(exe, "-test.list=.")
    assert r.rc == 0 and r.stdout.split() == ["FuzzLibFuzzer"], r


def test_const_input_overwrite_is_a_crash(build, tmp_path):
    exe = build("overwrite")
    # ClusterFuzz reads this string in a binary as "two-step merge works".
    assert b"fuzz target overwrites its const input" in open(exe, "rb").read()
    f = tmp_path / "over"
    f.write_bytes(b"OVER")
    r = lf(exe, f)
    assert r.rc == 77, r
    assert "ERROR: libFuzzer: fuzz target overwrites its const input" in \
        r.stderr, r
    f.write_bytes(b"OVEN")
    assert lf(exe, f).rc == 0


def test_sigterm_prints_final_stats(build, tmp_path, background):
    exe = build("nobug")
    corpus = tmp_path / "c"
    corpus.mkdir()
    bg = background([exe, "-seed=5", "-print_final_stats=1", str(corpus)],
                    str(tmp_path), {}, str(tmp_path))
    bg.wait_for_text("INITED")
    bg.signal(signal.SIGTERM)
    bg.wait()
    r = bg.result()
    assert r.rc == 72, r  # libFuzzer's interrupt code: "nothing found"
    assert "libFuzzer: run interrupted; exiting" in r.stderr, r
    assert re.search(r"^stat::number_of_executed_units: \d+$", r.stderr,
                     re.M), r



def test_crossover_of_seeds_finds_a_bug_made_of_their_parts(cgofuzz, tool,
                                                              tmp_path):
    """tests/lf/libfuzzer/parts.c: three tags, each in one seed only and compared by
    hash, in one input. A C worker's mutator never mixes two inputs; the
    coordinator's crossovers and seed parts do (fb_dict.c), for C
    targets too. Every call is a built one ($CGOFUZZ_DICT_CALLS=exact), so
    the budget counts builds: seeds 1-8 found it in 8k-25k runs."""
    tool("clang")
    exe = str(tmp_path / "parts")
    r = testlib.run([cgofuzz, "cc", "-g", "-O1", "-fsanitize=fuzzer",
                     os.path.join(HERE, "parts.c"), "-o", exe])
    assert r.rc == 0, r
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for name, text in (("a", b"<html><head>x</head></html>"),
                       ("b", b"<svg width=1><circle/></svg>"),
                       ("c", b"<form><select><option>a</select></form>")):
        (seeds / name).write_bytes(text)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    r = testlib.run([exe, "-seed=1", "-runs=300000", str(corpus), str(seeds)],
                    cwd=str(tmp_path), env={"CGOFUZZ_DICT_CALLS": "exact"})
    assert r.rc not in (0, None) and "deadly signal" in r.stderr, r
    path, _ = artifact(r, "crash")
    path = os.path.join(str(tmp_path), path)
    with open(path, "rb") as f:
        data = f.read()
    for tag in (b"<svg", b"<head", b"<select"):
        assert tag in data, data
    rr = testlib.run([exe, path], cwd=str(tmp_path))
    assert rr.rc not in (0, None) and "deadly signal" in rr.stderr, rr
