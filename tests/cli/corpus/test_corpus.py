"""`cgofuzz corpus merge`, `prune`, `stats` and `convert` round trips
(docs/corpus-tools.md).

The C target is harness.c built with `cgofuzz cc`, the Go target the
package gopkg (FuzzClassify(data []byte, n int)) built with go test -c
-fuzz. Coverage is checked by replaying: merging the merged directory alone
must reach exactly the features the merge of all inputs reported (every
feature of the union is kept), and a merge killed midway must end, when
run again, with the very files an uninterrupted merge writes.
"""
import hashlib
import os
import re
import shutil
import signal

import pytest

import testlib

HERE = os.path.dirname(os.path.abspath(__file__))
COV = re.compile(r"coverage of the (?:merged|remaining) set: (\d+) features, "
                 r"(\d+) edges")
RUN = re.compile(r": (\d+) run \((\d+) replayed from the control file\): "
                 r"(\d+) kept, (\d+) redundant, (\d+) duplicates, (\d+) "
                 r"failed, (\d+) unreadable")


@pytest.fixture(scope="module")
def ctarget(cgofuzz, tool, tmp_path_factory):
    tool("clang")
    out = str(tmp_path_factory.mktemp("corpus-c") / "h.test")
    r = testlib.run([cgofuzz, "cc", "-g", "-O1", "-fsanitize=address,fuzzer",
                     os.path.join(HERE, "harness.c"), "-o", out])
    assert r.rc == 0, r
    return out


@pytest.fixture(scope="module")
def gotarget(tool, tmp_path_factory):
    go = tool("go")
    return testlib.build_go_test_copy(go, os.path.join(HERE, "gopkg"),
                                      tmp_path_factory, "corpuspkg")


def files(d):
    return {f: open(os.path.join(d, f), "rb").read()
            for f in sorted(os.listdir(d))
            if os.path.isfile(os.path.join(d, f))}


def write_raw(d, items):
    os.makedirs(d, exist_ok=True)
    for name, data in items.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


def merge(cgofuzz, *args, cwd=None, env=None):
    r = testlib.run([cgofuzz, "corpus", "merge"] + [str(a) for a in args],
                    cwd=cwd, env=env)
    return r


def features(r):
    m = COV.search(r.stderr)
    assert m, r
    return int(m.group(1)), int(m.group(2))


def counts(r):
    m = RUN.search(r.stderr)
    assert m, r
    return [int(x) for x in m.groups()]


C_INPUTS = {
    "d1": {"a": b"a", "x": b"x", "ab": b"ab", "abc": b"abc",
           "long": b"zzzzzzzzzzzz", "crash": b"CRSH"},
    "d2": {"ab-again": b"ab", "abcd": b"abcd", "abxd": b"abxd",
           "go-ab": b'go test fuzz v1\n[]byte("ab")\n',
           "go-bad": b'go test fuzz v1\nstring("ab")\n',
           "go-long": b'go test fuzz v1\n[]byte("0123456789abcdef")\n'},
}


def c_corpus(tmp_path):
    for d, items in C_INPUTS.items():
        write_raw(str(tmp_path / d), items)
    return [str(tmp_path / d) for d in C_INPUTS]


def test_merge_c_target_keeps_all_coverage(cgofuzz, ctarget, tmp_path):
    dirs = c_corpus(tmp_path)
    out = tmp_path / "out"
    r = merge(cgofuzz, "-o", out, ctarget, *dirs)
    assert r.rc == 0, r
    union = features(r)
    executed, replayed, kept, redundant, dups, failed, bad = counts(r)
    # 12 files: "ab" three times (raw twice, once as a corpus file), one
    # crash, one corpus file of the wrong type.
    assert (replayed, failed, bad) == (0, 1, 1), r
    assert dups == 2 and executed == 12 - 1 - 2, r
    assert "crash on %s/crash" % dirs[0] in r.stderr, r
    assert "go-bad: corpus file value 1 is string" in r.stderr, r
    got = files(str(out))
    assert len(got) == kept and 0 < kept < 12 - 3, r
    values = sorted(v for v in got.values())
    # Go corpus files, canonical, each named as Go names it.
    for v in values:
        assert v.startswith(b"go test fuzz v1\n[]byte("), got
    assert b'go test fuzz v1\n[]byte("CRSH")\n' not in values
    assert len(set(values)) == len(values)
    # Replay: the merged set alone reaches every feature of the union.
    r2 = merge(cgofuzz, "-o", tmp_path / "again", ctarget, out)
    assert r2.rc == 0, r2
    assert features(r2) == union, (r, r2)
    # (The greedy set cover is libFuzzer's: a merged set is not always
    # minimal for a second merge, but never grows.)
    assert counts(r2)[2] <= kept, r2
    assert not os.path.exists(out / ".cgofuzz-merge-control")


def test_merge_raw_output_and_existing_outdir(cgofuzz, ctarget, tmp_path):
    dirs = c_corpus(tmp_path)
    out = tmp_path / "out"
    write_raw(str(out), {"seed": b"abcd"})
    r = merge(cgofuzz, "-to", "raw", "-o", out, ctarget, *dirs)
    assert r.rc == 0, r
    got = files(str(out))
    # The existing file stays and counts first: abcd is not added again.
    assert got["seed"] == b"abcd"
    assert b"abcd" not in [v for k, v in got.items() if k != "seed"]
    import hashlib
    for name, data in got.items():
        if name != "seed":
            assert name == hashlib.sha1(data).hexdigest(), got


def test_merge_killed_midway_resumes_to_the_same_files(cgofuzz, ctarget,
                                                       tmp_path):
    dirs = c_corpus(tmp_path)
    write_raw(dirs[1], {"kill": b"KILL", "zz-late": b"abcdefghijklm"})
    ref = tmp_path / "ref"
    r = merge(cgofuzz, "-o", ref, ctarget, *dirs)
    assert r.rc == 0, r
    flag = tmp_path / "kill-flag"
    flag.write_text("")
    out = tmp_path / "out"
    ctl = tmp_path / "control"
    env = {"CORPUS_TEST_KILL_FLAG": str(flag)}
    r1 = merge(cgofuzz, "-control", ctl, "-o", out, ctarget, *dirs, env=env)
    assert r1.rc == -signal.SIGKILL, r1
    assert not flag.exists()
    recorded = [l for l in ctl.read_text().splitlines() if l.startswith("R ")]
    assert 0 < len(recorded), ctl.read_text()
    r2 = merge(cgofuzz, "-control", ctl, "-o", out, ctarget, *dirs, env=env)
    assert r2.rc == 0, r2
    executed, replayed = counts(r2)[:2]
    assert replayed == len(recorded), r2
    # Everything recorded was replayed, not run again.
    assert executed + replayed == counts(r)[0], (r, r2)
    assert files(str(out)) == files(str(ref))
    assert ctl.exists()  # given with -control: kept


def test_control_file_of_another_target_is_refused(cgofuzz, ctarget,
                                                   tmp_path):
    dirs = c_corpus(tmp_path)
    ctl = tmp_path / "control"
    ctl.write_text("cgofuzz merge control v1\ntarget FuzzOther\n")
    r = merge(cgofuzz, "-control", ctl, "-o", tmp_path / "out", ctarget,
              *dirs)
    assert r.rc == 1, r
    assert "is for another target" in r.stderr, r
    ctl.write_text("something else\n")
    r = merge(cgofuzz, "-control", ctl, "-o", tmp_path / "out", ctarget,
              *dirs)
    assert r.rc == 1 and "not a cgofuzz merge control file" in r.stderr, r
    assert ctl.read_text() == "something else\n"
    # Cut short while its header was written: started again.
    ctl.write_text("cgofuzz merge con")
    r = merge(cgofuzz, "-control", ctl, "-o", tmp_path / "out", ctarget,
              *dirs)
    assert r.rc == 0, r
    assert ctl.read_text().startswith(
        "cgofuzz merge control v1\ntarget FuzzLibFuzzer\ncounters ")


def test_prune_deletes_only_what_is_accounted_for(cgofuzz, ctarget,
                                                  tmp_path):
    dirs = c_corpus(tmp_path)
    before = {d: files(d) for d in dirs}
    r0 = merge(cgofuzz, "-o", tmp_path / "m", ctarget, *dirs)
    union = features(r0)
    r = testlib.run([cgofuzz, "corpus", "prune", "-v", ctarget] + dirs)
    assert r.rc == 0, r
    after = {d: files(d) for d in dirs}
    left = {(d, f) for d in dirs for f in after[d]}
    # The crash and the file of another type are never deleted.
    assert (dirs[0], "crash") in left and (dirs[1], "go-bad") in left
    # Nothing was changed, only removed.
    for d in dirs:
        for f, v in after[d].items():
            assert before[d][f] == v
    removed = re.findall(r"^removed (\S+) \((duplicate|redundant)\)$",
                         r.stderr, re.M)
    assert len(removed) == sum(len(before[d]) for d in dirs) - len(left)
    # What is left has the union's coverage, and no duplicate remains.
    r2 = merge(cgofuzz, "-o", tmp_path / "m2", ctarget, *dirs)
    assert features(r2) == union, (r0, r2)
    assert counts(r2)[4] == 0 and counts(r2)[3] == 0, r2
    assert not os.path.exists(os.path.join(dirs[0], ".cgofuzz-prune-control"))


def test_prune_dry_run_removes_nothing(cgofuzz, ctarget, tmp_path):
    dirs = c_corpus(tmp_path)
    before = {d: files(d) for d in dirs}
    r = testlib.run([cgofuzz, "corpus", "prune", "-n", ctarget] + dirs)
    assert r.rc == 0, r
    assert "would remove" in r.stdout, r
    assert {d: files(d) for d in dirs} == before


def go_file(data, n):
    return ('go test fuzz v1\n[]byte(%s)\nint(%d)\n' % (data, n)).encode()


def test_merge_go_test_binary(cgofuzz, gotarget, tmp_path):
    # Not in testdata: Go's own discovery run would refuse the raw file.
    corpus = tmp_path / "corpus"
    inputs = {"e1": go_file('"a"', 0), "e2": go_file('"ab"', 0),
              "e3": go_file('"abc"', 0), "e4": go_file('"abc"', -5),
              "e5": go_file('"xyz"', 5000), "e6": go_file('"b"', 3),
              "e7": b'go test fuzz v1\n[]byte("\\x61")\nint(0x0,)\n',
              "e8": go_file('"abc"', -7), "e9": go_file('"\\x00"', 2000),
              "raw": b"\x03abc\x01\x00\x00\x00\x00\x00\x00\x00"}
    write_raw(str(corpus), inputs)
    out = tmp_path / "merged"
    r = merge(cgofuzz, "-o", out, gotarget, "-fuzz", "FuzzClassify", corpus,
              cwd=tmp_path)
    assert r.rc == 0, r
    union = features(r)
    executed, replayed, kept, redundant, dups, failed, bad = counts(r)
    assert (failed, bad) == (0, 0) and dups >= 1, r
    got = files(str(out))
    assert 0 < len(got) == kept < len(inputs), r
    for v in got.values():
        assert re.match(rb"go test fuzz v1\n\[\]byte\(.*\)\nint\(-?\d+\)\n$",
                        v), v
    r2 = merge(cgofuzz, "-o", tmp_path / "again", gotarget, out, cwd=tmp_path)
    assert r2.rc == 0, r2
    assert features(r2) == union, (r, r2)


# Releases that name corpus files by 64 hex digits: go1.18.10 is fetched
# into the module cache by scripts/install-deps.sh (for tests/go/releases),
# go1.19.13 by `GOTOOLCHAIN=go1.19.13 go version`; one not there is a
# visible skip.
OLD_RELEASES = ["go1.18.10", "go1.19.13"]


def release_env(release):
    # GOPROXY=off: the toolchain must already be in the module cache.
    return {"GOTOOLCHAIN": release, "GOFLAGS": "-mod=mod", "GOPROXY": "off",
            "GODEBUG": "goindex=0"}


@pytest.fixture(scope="module", params=OLD_RELEASES)
def old_gotarget(request, tool, tmp_path_factory):
    """(release, gopkg's test binary built by that release): gopkg's go.mod
    says go 1.18, so GOTOOLCHAIN=<release> builds it with that release."""
    go = tool("go")
    release = request.param
    env = release_env(release)
    r = testlib.run([go, "env", "GOROOT"], cwd="/", env=env, timeout=120)
    if r.rc != 0:
        pytest.skip("%s is not in the module cache (GOTOOLCHAIN=%s go "
                    "version fetches it)" % (release, release))
    d = tmp_path_factory.mktemp("corpus-" + release)
    pkg = str(d / "corpuspkg")
    shutil.copytree(os.path.join(HERE, "gopkg"), pkg)
    exe = str(d / "corpuspkg.test")
    r = testlib.run([go, "test", "-c", "-fuzz=.", "-o", exe, "."], cwd=pkg,
                    env=env, timeout=600)
    assert r.rc == 0, r
    return release, exe


def merged_as(cgofuzz, binary, tmp_path, digits):
    """Merges a corpus with binary; checks that every file written is named
    by the first `digits` hex digits of its content's sha256 (the whole
    sum: 64) and returns {name: content}. The smallest input (e0, its DEL
    byte quoted as \\x7f), run first with no coverage before it, is always
    kept."""
    corpus = tmp_path / "corpus"
    inputs = {"e0": go_file('"\\x7f"', 0), "e1": go_file('"a"', -1000),
              "e2": go_file('"ab"', -1000), "e3": go_file('"abc"', -5),
              "e4": go_file('"xyz"', 5000), "e5": go_file('"abc"', -7)}
    write_raw(str(corpus), inputs)
    out = tmp_path / "merged"
    r = merge(cgofuzz, "-o", out, binary, corpus, cwd=tmp_path)
    assert r.rc == 0, r
    assert "cannot tell which Go release" not in r.stderr, r
    got = files(str(out))
    assert 1 < len(got) == counts(r)[2], r
    for name, data in got.items():
        assert re.fullmatch("[0-9a-f]{%d}" % digits, name), (name, r)
        assert name == hashlib.sha256(data).hexdigest()[:digits], (name, data)
    return got


def test_merge_follows_the_binarys_release(cgofuzz, gotarget, old_gotarget,
                                           tmp_path):
    """merge writes and names files as the Go release that built the binary
    writes and names them (cgofuzz_gobin_gover), not as the newest:
    go1.18 and go1.19 name a corpus file by its whole sha256 (64 hex
    digits), and go1.18 quotes DEL as \\u007f; the go on PATH (1.20 on)
    names it by 16 digits and quotes \\x7f."""
    release, exe = old_gotarget
    old = merged_as(cgofuzz, exe, tmp_path / "old", 64)
    new = merged_as(cgofuzz, gotarget, tmp_path / "new", 16)
    del_old = b'[]byte("\\u007f")' if release.startswith("go1.18.") \
        else b'[]byte("\\x7f")'
    assert b"go test fuzz v1\n%s\nint(0)\n" % del_old in old.values(), old
    assert go_file('"\\x7f"', 0) in new.values(), new


def test_merge_usage_errors(cgofuzz, ctarget, tmp_path):
    r = merge(cgofuzz, ctarget, tmp_path)
    assert r.rc == 2 and "-o OUTDIR is required" in r.stderr, r
    r = merge(cgofuzz, "-o", tmp_path / "o", ctarget, tmp_path / "missing")
    assert r.rc == 2 and "missing: No such file" in r.stderr, r
    r = merge(cgofuzz, "-o", tmp_path / "o", "-fuzz", "Nope", ctarget,
              tmp_path)
    assert r.rc == 1 and "matches 0 fuzz targets" in r.stderr, r


def test_stats(cgofuzz, tmp_path):
    d = tmp_path / "c"
    write_raw(str(d), {
        "a": b'go test fuzz v1\n[]byte("hi")\nint(1)\n',
        "b": b'go test fuzz v1\n[]byte("hi")\nint(0x1) // the same\n',
        "c": b'go test fuzz v1\nstring("s")\n',
        "d": b'go test fuzz v1\n[]byte("x")\nint(1.5)\n',
        "e": b"raw bytes",
        ".hidden": b"skipped"})
    r = testlib.run([cgofuzz, "corpus", "stats", str(d)])
    assert r.rc == 0, r
    sizes = sorted(os.path.getsize(os.path.join(d, f)) for f in "abcde")
    assert r.stdout.splitlines()[:6] == [
        str(d),
        "  files: 5 (4 go test fuzz v1, 1 raw)",
        "  bytes: total %d, min %d, median %d, max %d" % (
            sum(sizes), sizes[0], sizes[2], sizes[4]),
        "  types: 2 ([]byte, int), 1 (string)",
        "  duplicates: 1 files repeat the contents of another (1 groups)",
        "    %s/a = %s/b" % (d, d),
    ], r
    assert "  rejected by Go: 1 go test fuzz v1 files (and the raw files)" \
        in r.stdout, r
    assert re.search(r"^    %s/d:3: .*" % re.escape(str(d)), r.stdout,
                     re.M), r
    rv = testlib.run([cgofuzz, "corpus", "stats", "-v", str(d), str(d)])
    assert rv.rc == 0 and "%s/e: " % d in rv.stdout, rv
    assert "all directories\n  files: 10 (8 go test fuzz v1, 2 raw)" \
        in rv.stdout, rv
    r = testlib.run([cgofuzz, "corpus", "stats", str(tmp_path / "nope")])
    assert r.rc == 2, r


def test_convert_round_trips_raw_and_go(cgofuzz, tmp_path):
    raw = tmp_path / "raw"
    items = {"r%d" % i: bytes((i * 37 + k) % 256 for k in range(i * 3))
             for i in range(12)}
    write_raw(str(raw), items)
    gof = tmp_path / "go"
    r = testlib.run([cgofuzz, "corpus", "convert", "-types", "[]byte", "-o",
                     str(gof)] + [str(raw / n) for n in items])
    assert r.rc == 0, r
    back = tmp_path / "back"
    r = testlib.run([cgofuzz, "corpus", "convert", "-to", "raw", "-types",
                     "[]byte", "-o", str(back)] +
                    [str(gof / n) for n in sorted(os.listdir(gof))])
    assert r.rc == 0, r
    assert sorted(files(str(back)).values()) == sorted(items.values())
    again = tmp_path / "again"
    r = testlib.run([cgofuzz, "corpus", "convert", "-types", "[]byte", "-o",
                     str(again)] + [str(back / n) for n in os.listdir(back)])
    assert r.rc == 0, r
    assert files(str(again)) == files(str(gof))


def test_convert_go118_usage(cgofuzz, tmp_path):
    f = tmp_path / "f"
    f.write_bytes(b"\x00\x00\x00\x02hi\x00\x00\x00\x01z\x04")
    r = testlib.run([cgofuzz, "corpus", "convert", "-from", "go118", "-to",
                     "raw", "-types", "[]byte", "-o", str(tmp_path), str(f)])
    assert r.rc == 2 and "-from go118 converts to go files only" in r.stderr
    r = testlib.run([cgofuzz, "corpus", "convert", "-from", "afl", "-types",
                     "[]byte", "-o", str(tmp_path), str(f)])
    assert r.rc == 2 and "-from must be raw or go118" in r.stderr
    out = tmp_path / "o"
    r = testlib.run([cgofuzz, "corpus", "convert", "-from", "go118", "-types",
                     "[]byte,string,bool", "-o", str(out), str(f)])
    assert r.rc == 0, r
    assert list(files(str(out)).values()) == [
        b'go test fuzz v1\n[]byte("hi")\nstring("z")\nbool(true)\n']
