"""`-go 1.N` of `cgofuzz corpus fmt` and `cgofuzz mutate` (issue 14): files
carry no release, so the user names one; the default is the newest. The
expected bytes are what each release's own internal/fuzz writes (checked
with go1.18.10, go1.20.14, go1.26.11 and go1.27.4; tests/diff compares
such cases by the ten thousand)."""
import testlib

FILE = 'go test fuzz v1\n[]byte("\\x7f\\u0897")\nrune(\'\\u061d\')\n'


def fmt(cgofuzz, path, *flags):
    return testlib.run([cgofuzz, "corpus", "fmt"] + list(flags) + [str(path)])


def test_corpus_fmt_follows_release(cgofuzz, tmp_path):
    p = tmp_path / "seed"
    p.write_text(FILE)
    want = {
        "1.18": '[]byte("\\u007f\\u0897")\nrune(\'\\u061d\')\n',
        "1.20": '[]byte("\\x7f\\u0897")\nrune(\'\\u061d\')\n',
        "1.26": '[]byte("\\x7f\\u0897")\nrune(\'\u061d\')\n',
        "1.27": '[]byte("\\x7f\u0897")\nrune(\'\u061d\')\n',
    }
    for rel, body in want.items():
        r = fmt(cgofuzz, p, "-go", rel)
        assert r.rc == 0, r
        assert r.stdout == "go test fuzz v1\n" + body, rel
    r = fmt(cgofuzz, p)
    assert r.rc == 0 and r.stdout == "go test fuzz v1\n" + want["1.27"], r


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
