"""`-go 1.N` of the commands that see files only (`cgofuzz corpus fmt`,
`corpus convert`, `corpus stats`, `mutate`; issue 14): files carry no
release, so the user names one; without -go the user's release is followed
(issue 22, cli_gover_default): `go env GOVERSION` of the go on PATH, else
the nearest go.mod's toolchain line, else its go line, else the newest.
The expected bytes are what each release's own internal/fuzz writes
(checked with go1.18.10, go1.19.13, go1.20.14, go1.26.11 and go1.27.4;
tests/core/diff compares such cases by the ten thousand).

Cases that check the default control it: PATH is a directory of the case
holding a fake `go` (a shell script printing a chosen GOVERSION) or
nothing, and the command runs in a directory of the case, with or without
a go.mod. One case uses the machine's own go."""
import os
import re

import testlib

FILE = 'go test fuzz v1\n[]byte("\\x7f\\u0897")\nrune(\'\\u061d\')\n'


# What each release writes for FILE: go1.18 quotes DEL as \u007f; Unicode
# 13 (up to go1.20) has neither U+0897 nor U+061D; 15 (go1.21-go1.26) has
# U+061D; 17 (go1.27) both.
WANT = {
    "1.18": '[]byte("\\u007f\\u0897")\nrune(\'\\u061d\')\n',
    "1.19": '[]byte("\\x7f\\u0897")\nrune(\'\\u061d\')\n',
    "1.20": '[]byte("\\x7f\\u0897")\nrune(\'\\u061d\')\n',
    "1.26": '[]byte("\\x7f\\u0897")\nrune(\'\u061d\')\n',
    "1.27": '[]byte("\\x7f\u0897")\nrune(\'\u061d\')\n',
}


def fmt(cgofuzz, path, *flags, cwd=None, env=None):
    return testlib.run([cgofuzz, "corpus", "fmt"] + list(flags) + [str(path)],
                       cwd=cwd, env=env)


def fake_go(tmp_path, goversion, status=0):
    """A PATH (env changes) whose only go prints goversion for `go env
    GOVERSION` and exits with status; each run appends its arguments to
    the file `ran` beside it."""
    d = tmp_path / "fakebin"
    d.mkdir(exist_ok=True)
    go = d / "go"
    ran = d / "ran"
    go.write_text('#!/bin/sh\necho "$*" >>%s\necho "%s"\nexit %d\n'
                  % (ran, goversion, status))
    go.chmod(0o755)
    return {"PATH": str(d)}


def no_go(tmp_path):
    """A PATH with no go at all."""
    d = tmp_path / "emptybin"
    d.mkdir(exist_ok=True)
    return {"PATH": str(d)}


def ran(env):
    """The argument lines the fake go of env was run with."""
    p = os.path.join(env["PATH"], "ran")
    return open(p).read().splitlines() if os.path.exists(p) else []


def work_dir(tmp_path, gomod=None):
    """A directory to run in: a module whose go.mod is gomod (in a package
    directory two levels below it), or no module (gomod None)."""
    d = tmp_path / "work"
    if gomod is not None:
        (d / "pkg" / "sub").mkdir(parents=True)
        (d / "go.mod").write_text(gomod)
        return d / "pkg" / "sub"
    d.mkdir()
    return d


def test_corpus_fmt_follows_release(cgofuzz, tmp_path):
    p = tmp_path / "seed"
    p.write_text(FILE)
    for rel, body in WANT.items():
        r = fmt(cgofuzz, p, "-go", rel)
        assert r.rc == 0 and r.stdout == "go test fuzz v1\n" + body, rel
    # Without -go, no go on PATH and no go.mod: the newest.
    r = fmt(cgofuzz, p, cwd=work_dir(tmp_path), env=no_go(tmp_path))
    assert r.rc == 0 and r.stdout == "go test fuzz v1\n" + WANT["1.27"], r


def test_corpus_fmt_crlf_header(cgofuzz, tmp_path):
    p = tmp_path / "crlf"
    p.write_bytes(b"go test fuzz v1\r\nint(1)\n")
    r = fmt(cgofuzz, p, "-go", "1.18")
    assert r.rc == 2 and "unknown encoding version" in r.stderr, r
    r = fmt(cgofuzz, p, "-go", "1.19")
    assert r.rc == 0 and r.stdout == "go test fuzz v1\nint(1)\n", r


def test_mutate_follows_release(cgofuzz, tmp_path):
    p = tmp_path / "seed"
    p.write_text('go test fuzz v1\n[]byte("\\x7f\\u0897")\n')
    outs = {}
    for rel in ("1.18", "1.27"):
        r = testlib.run([cgofuzz, "mutate", "-go", rel, "-rand-state", "1", "-rand-inc",
                         "3", "-n", "2", str(p)])
        assert r.rc == 0, r
        outs[rel] = r.stdout
    # The same mutation in every release; only the quoting of DEL differs.
    assert outs["1.18"] == 'go test fuzz v1\n[]byte("\\u007f\\x80M\\x97")\n'
    assert outs["1.27"] == 'go test fuzz v1\n[]byte("\\x7f\\x80M\\x97")\n'


def test_bad_release(cgofuzz, tmp_path):
    p = tmp_path / "seed"
    p.write_text(FILE)
    for bad, why in (("1.17", "go1.17 is not supported (1.18 ... 1.27)"),
                     ("x", "want a Go release such as 1.27")):
        r = fmt(cgofuzz, p, "-go", bad)
        assert r.rc == 2, r
        assert 'invalid value "%s" for flag -go: %s' % (bad, why) in r.stderr, r


# -- the default: the user's release (issue 22) -------------------------------

def test_default_follows_go_on_path(cgofuzz, tmp_path):
    p = tmp_path / "seed"
    p.write_text(FILE)
    cwd = work_dir(tmp_path)
    for goversion, rel in (("go1.18.10", "1.18"), ("go1.19.13", "1.19"),
                           ("go1.20.14", "1.20"), ("go1.26.11", "1.26"),
                           ("go1.27.4", "1.27"),
                           # pre-releases, a development build, experiments
                           ("go1.20rc1", "1.20"),
                           ("devel go1.26-5a1b2c3 Tue Nov 3 12:00:00 2026 +0000",
                            "1.26"),
                           ("go1.19.13 X:nocoverageredesign", "1.19"),
                           # clamped: a later go follows the newest, an
                           # earlier one (which cannot fuzz) the oldest
                           ("go1.31.2", "1.27"), ("go1.17.13", "1.18")):
        env = fake_go(tmp_path, goversion)
        r = fmt(cgofuzz, p, cwd=cwd, env=env)
        assert r.rc == 0 and r.stdout == "go test fuzz v1\n" + WANT[rel], \
            (goversion, r)


def test_default_go_runs_once_and_not_with_flag(cgofuzz, tmp_path):
    p = tmp_path / "seed"
    p.write_text(FILE)
    cwd = work_dir(tmp_path)
    env = fake_go(tmp_path, "go1.18.10")
    # -go overrides, and go is not run at all.
    r = fmt(cgofuzz, p, "-go", "1.20", cwd=cwd, env=env)
    assert r.rc == 0 and r.stdout == "go test fuzz v1\n" + WANT["1.20"], r
    assert ran(env) == []
    r = testlib.run([cgofuzz, "corpus", "fmt", "-go=1.27", str(p), str(p)],
                    cwd=cwd, env=env)
    assert r.rc == 0 and r.stdout == 2 * ("go test fuzz v1\n" + WANT["1.27"]), r
    assert ran(env) == []
    # Without it, go runs once however many files there are.
    r = testlib.run([cgofuzz, "corpus", "fmt", str(p), str(p), str(p)],
                    cwd=cwd, env=env)
    assert r.rc == 0 and r.stdout == 3 * ("go test fuzz v1\n" + WANT["1.18"]), r
    assert ran(env) == ["env GOVERSION"]
    # A usage error or -h does not run it either.
    r = testlib.run([cgofuzz, "corpus", "fmt", "-h"], cwd=cwd, env=env)
    assert r.rc == 0 and "default: that of the go on PATH, else go.mod's, " \
        "else the newest" in r.stderr, r
    testlib.run([cgofuzz, "corpus", "fmt"], cwd=cwd, env=env)
    assert ran(env) == ["env GOVERSION"]


def test_default_from_go_mod(cgofuzz, tmp_path):
    p = tmp_path / "seed"
    p.write_text(FILE)
    cases = (
        # the toolchain line first, wherever it is
        ("module m\n\ngo 1.18\n\ntoolchain go1.20.3 // pinned\n", "1.20"),
        ("module m\ntoolchain go1.26.1\ngo 1.21.0\n", "1.26"),
        # then the go line
        ("module m\n\ngo 1.18\n\nrequire example.com/x v1.0.0\n", "1.18"),
        ("module m\n\ngo 1.19 // comment\n", "1.19"),
        ("module m\n\ngo 1.16\n", "1.18"),  # a minimum: fuzzed by 1.18 on
        ("module m\n\ngo 1.30\n", "1.27"),
        # neither: the newest ("godebug" is not a go line)
        ("module m\n\ngodebug default=go1.20\n", "1.27"),
    )
    for i, (gomod, rel) in enumerate(cases):
        case = tmp_path / ("case%d" % i)
        case.mkdir()
        cwd = work_dir(case, gomod)
        r = fmt(cgofuzz, p, cwd=cwd, env=no_go(case))
        assert r.rc == 0 and r.stdout == "go test fuzz v1\n" + WANT[rel], \
            (gomod, r)
        # A go that fails (or prints no release) leaves it to go.mod too.
        for goversion, status in (("go1.26.8", 1), ("unknown", 0)):
            env = fake_go(case, goversion, status)
            r = fmt(cgofuzz, p, cwd=cwd, env=env)
            assert r.rc == 0 and r.stdout == "go test fuzz v1\n" + WANT[rel], \
                (gomod, goversion, r)
            os.remove(os.path.join(env["PATH"], "ran"))
        # The go on PATH wins over go.mod.
        r = fmt(cgofuzz, p, cwd=cwd, env=fake_go(case, "go1.27.4"))
        assert r.rc == 0 and r.stdout == "go test fuzz v1\n" + WANT["1.27"], r
        # -go wins over both.
        r = fmt(cgofuzz, p, "-go", "1.19", cwd=cwd, env=no_go(case))
        assert r.rc == 0 and r.stdout == "go test fuzz v1\n" + WANT["1.19"], r


def test_default_of_mutate_convert_stats(cgofuzz, tmp_path):
    cwd = work_dir(tmp_path)
    seed = tmp_path / "seed"
    seed.write_text('go test fuzz v1\n[]byte("\\x7f\\u0897")\n')
    raw = tmp_path / "raw"
    raw.write_bytes(b"\x7f\xe0\xa2\x97")  # DEL, U+0897
    crlf = tmp_path / "crlfdir"
    crlf.mkdir()
    (crlf / "a").write_bytes(b"go test fuzz v1\r\nint(1)\n")
    (crlf / "b").write_bytes(b"go test fuzz v1\nint(1)\n")
    mutated = {"1.18": '[]byte("\\u007f\\x80M\\x97")\n',
               "1.19": '[]byte("\\x7f\\x80M\\x97")\n'}
    converted = {"1.18": '[]byte("\\u007f\\u0897")\n',
                 "1.19": '[]byte("\\x7f\\u0897")\n',
                 "1.20": '[]byte("\\x7f\\u0897")\n',
                 "1.27": '[]byte("\\x7f\u0897")\n'}
    for goversion, rel, flags in (("go1.18.10", "1.18", []),
                                  ("go1.19.13", "1.19", []),
                                  ("go1.20.14", "1.20", []),
                                  ("go1.18.10", "1.27", ["-go", "1.27"]),
                                  (None, "1.27", [])):
        env = fake_go(tmp_path, goversion) if goversion else no_go(tmp_path)
        what = (goversion, flags)
        # mutate: the same mutation, printed as the release prints it
        if rel in mutated:
            r = testlib.run([cgofuzz, "mutate"] + flags +
                            ["-rand-state", "1", "-rand-inc", "3", "-n", "2",
                             str(seed)], cwd=cwd, env=env)
            assert r.rc == 0, r
            assert r.stdout == "go test fuzz v1\n" + mutated[rel], what
        # corpus convert: contents and name (64 hex digits in 1.18/1.19)
        out = tmp_path / ("conv-%s-%d" % (rel, len(flags)))
        r = testlib.run([cgofuzz, "corpus", "convert", "-types", "[]byte",
                         "-o", str(out)] + flags + [str(raw)], cwd=cwd, env=env)
        assert r.rc == 0, r
        names = os.listdir(out)
        digits = 64 if rel in ("1.18", "1.19") else 16
        assert len(names) == 1 and re.fullmatch("[0-9a-f]{%d}" % digits,
                                                names[0]), (what, names)
        body = (out / names[0]).read_text()
        assert body == "go test fuzz v1\n" + converted[rel], (what, body)
        # corpus stats: go1.18 rejects the CRLF file, later releases take
        # it as a duplicate of the other
        r = testlib.run([cgofuzz, "corpus", "stats"] + flags + [str(crlf)],
                        cwd=cwd, env=env)
        assert r.rc == 0, r
        if rel == "1.18":
            assert "rejected by Go: 1 go test fuzz v1 files" in r.stdout, r
            assert "duplicates: 0 files" in r.stdout, r
        else:
            assert "rejected by Go: 0 go test fuzz v1 files" in r.stdout, r
            assert "duplicates: 1 files" in r.stdout, r
        if goversion:
            assert ran(env) == ([] if flags else ["env GOVERSION"] * (
                3 if rel in mutated else 2)), (what, ran(env))
            if ran(env):
                os.remove(os.path.join(env["PATH"], "ran"))


def test_default_follows_machine_go(cgofuzz, tool, tmp_path):
    """With the machine's own go (1.26 on the CI image), corpus fmt writes
    what that release writes."""
    go = tool("go")
    cwd = work_dir(tmp_path)
    env = {"PATH": os.path.dirname(go) + os.pathsep + os.environ["PATH"]}
    r = testlib.run([go, "env", "GOVERSION"], cwd=cwd, env=env)
    assert r.rc == 0, r
    m = re.match(r"(?:devel )?go1\.(\d+)", r.stdout)
    assert m, r
    rel = "1.%d" % min(max(int(m.group(1)), 18), 27)
    p = tmp_path / "seed"
    p.write_text(FILE)
    r = fmt(cgofuzz, p, cwd=cwd, env=env)
    want = fmt(cgofuzz, p, "-go", rel, cwd=cwd, env=env)
    assert want.rc == 0 and r.rc == 0 and r.stdout == want.stdout, (rel, r)
    if rel in WANT:
        assert r.stdout == "go test fuzz v1\n" + WANT[rel], r
