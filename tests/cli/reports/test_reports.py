"""Coverage reports and run plots: `cgofuzz cover` and `cgofuzz plot`
(tools/report, docs/reports.md).

cover: a small Go package and a small C target (`cgofuzz cc -cover`) with
fixed corpora that reach some branches and not others. The text summary
must equal what Go's and LLVM's own tools say about the same corpus,
computed here independently (`go test -coverprofile` + `go tool cover
-func`; a replay of our own + `llvm-cov-14 report`); the HTML must mark the
known lines covered / uncovered; headless Chromium must render it with both
backgrounds. plot: CSV files written here (the -fuzzstats format), the SVG's
series and axis labels, and its rendering. Missing go, clang, llvm-14,
chromium or Pillow is a visible skip.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import testlib

HERE = os.path.dirname(os.path.abspath(__file__))
# -fuzzstats' header before its c_coverage column (plot still reads it),
# and the one written now.
HEADER = "elapsed_s,target,execs,execs_per_s,coverage,corpus,new_inputs,failures\n"
HEADER_C = HEADER.rstrip("\n") + ",c_coverage\n"
SVG = "{http://www.w3.org/2000/svg}"

# Background colours of tools/report/report.html.j2 and matplotlib's first
# three line colours plus the failure marker's.
COVERED, UNCOVERED = "c8f0c8", "f8c0c0"
BLUE, ORANGE, RED = "1f77b4", "ff7f0e", "d62728"


# -- helpers -------------------------------------------------------------------

def pillow_python():
    """A python3 that can import PIL (this one, or Debian's), or a skip."""
    for py in (sys.executable, "/usr/bin/python3"):
        if py and os.access(py, os.X_OK) and subprocess.run(
                [py, "-c", "import PIL.Image"], capture_output=True).returncode == 0:
            return py
    pytest.skip("Pillow is not installed (Debian: python3-pil, which "
                "python3-matplotlib brings; scripts/install-deps.sh)")


def screenshot(tool, page, png, size="1200,2000"):
    chromium = None
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            chromium = shutil.which(name)
            break
    if chromium is None:
        tool("chromium")  # skips, naming it
    r = testlib.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                     "--hide-scrollbars", "--screenshot=" + str(png),
                     "--window-size=" + size, "file://" + str(page)],
                    timeout=120)
    assert os.path.getsize(png) > 0 if os.path.exists(png) else False, r
    return png


def colours(png, *want):
    r = subprocess.run([pillow_python(), os.path.join(HERE, "pixels.py"),
                        str(png)] + list(want), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def line_rows(html):
    """{line: (state, hits)} of one file's table in the report."""
    rows = {}
    for m in re.finditer(r'<tr(?: class="(\w+)")? data-line="(\d+)"'
                         r'(?: data-hits="(\d+)")?', html):
        rows[int(m.group(2))] = (m.group(1), None if m.group(3) is None
                                 else int(m.group(3)))
    return rows


def file_table(html, name):
    """The HTML of the code table of file `name`."""
    start = html.index('data-file="%s"' % name)
    return html[start:html.index("</table>", start)]


def line_of(path, text):
    """1-based number of the only line of path containing text."""
    with open(path) as f:
        hits = [i for i, l in enumerate(f, 1) if text in l]
    assert len(hits) == 1, (path, text, hits)
    return hits[0]


def summary_files(out, lang):
    """{name: (covered, total, percent)} and the total of one language's
    section of the text summary."""
    sect = out.split("%s (" % lang, 1)[1]
    sect = re.split(r"\n(?=\S)", sect, 1)[0]
    files = {}
    for m in re.finditer(r"^  (\S+)\s+(\d+)/(\d+)\s+([\d.]+)%$", sect, re.M):
        files[m.group(1)] = (int(m.group(2)), int(m.group(3)), m.group(4))
    return files


# -- the Go example --------------------------------------------------------

GO_SRC = """package classify

// Classify sorts an input into one of a few kinds.
func Classify(b []byte) int {
	if len(b) == 0 {
		return 0 // EMPTY
	}
	if b[0] == 'a' {
		return 1 // A
	}
	if b[0] == 'b' {
		if len(b) > 3 {
			return 2 // LONG-B
		}
		return 3 // SHORT-B
	}
	return 4 // OTHER
}

// Unused is never called by the fuzz target.
func Unused(x int) int {
	if x > 0 {
		return x // UNUSED
	}
	return -x
}
"""

GO_TEST = """package classify

import "testing"

func FuzzClassify(f *testing.F) {
	f.Add([]byte("zz"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if Classify(b) == 99 {
			t.Fatal("never")
		}
	})
}
"""


def go_entry(text):
    return 'go test fuzz v1\n[]byte("%s")\n' % text


def go_module(tmp_path, name, files, target, entries):
    """A module of one package in tmp_path/name: files {name: text}, and
    entries {name: []byte text} in its testdata/fuzz/target. An import
    path of its own: nothing in Go's fuzz cache belongs to it."""
    d = tmp_path / name
    os.makedirs(d / "testdata" / "fuzz" / target)
    testlib.write(d / "go.mod", "module example.com/cgofuzz-cover-test/%s/"
                  "%s\n\ngo 1.18\n" % (tmp_path.name, name))
    for fn, text in files.items():
        testlib.write(d / fn, text)
    for fn, text in entries.items():
        testlib.write(d / "testdata" / "fuzz" / target / fn, go_entry(text))
    return d


@pytest.fixture
def gopkg(tmp_path, tool):
    tool("go")
    return go_module(tmp_path, "classify", {"classify.go": GO_SRC,
                                            "classify_test.go": GO_TEST},
                     "FuzzClassify", {"a": "a", "b": "bxx"})


def go_func_reference(pkgdir, tmp_path):
    """`go tool cover -func` of go test's own replay of the same corpus."""
    prof = tmp_path / "ref.out"
    testlib.run(["go", "test", "-run=^FuzzClassify$", "-covermode=count",
                 "-coverprofile=" + str(prof), "."], cwd=pkgdir)
    r = testlib.run(["go", "tool", "cover", "-func=" + str(prof)], cwd=pkgdir)
    assert r.rc == 0, r
    funcs = dict(re.findall(r"^\S+:\d+:\s+(\w+)\s+([\d.]+%)$", r.stdout, re.M))
    total = re.search(r"^total:\s+\(statements\)\s+([\d.]+%)$", r.stdout,
                      re.M).group(1)
    return funcs, total


def test_go_cover_agrees_with_go_tool_cover(cgofuzz, gopkg, tmp_path):
    extra = tmp_path / "extra"
    os.makedirs(extra)
    testlib.write(extra / "long", go_entry("b12345"))
    testlib.write(extra / "raw", "not a corpus file")  # skipped, with a word
    out_html = tmp_path / "report.html"
    r = testlib.run([cgofuzz, "cover", "-fuzz", "FuzzClassify", "-corpus",
                     str(extra), "-o", str(out_html), "."], cwd=gopkg)
    assert r.rc == 0, r
    assert "not a \"go test fuzz v1\" file, skipped" in r.stderr, r
    # The reference replays the same corpus: the package's testdata plus
    # the extra entry (raw files are not Go corpus files).
    shutil.copy(extra / "long", gopkg / "testdata/fuzz/FuzzClassify/long")
    funcs, total = go_func_reference(gopkg, tmp_path)
    ours = dict(re.findall(r"^    func (\w+) \(line \d+\) ([\d.]+%)$",
                           r.stdout, re.M))
    assert ours == funcs, r
    files = summary_files(r.stdout, "Go")
    assert files["total"][2] + "%" == total, r
    assert files["classify.go"][:2] == files["total"][:2]
    # "a", "bxx", "b12345" and the seed "zz": all of Classify but the
    # empty input's return, none of Unused.
    assert funcs == {"Classify": "88.9%", "Unused": "0.0%"}, funcs

    html = testlib.read(out_html)
    rows = line_rows(file_table(html, "classify.go"))
    src = gopkg / "classify.go"
    for text, state in (("// A", "covered"), ("// LONG-B", "covered"),
                        ("// SHORT-B", "covered"), ("// OTHER", "covered"),
                        ("// EMPTY", "uncovered"), ("// UNUSED", "uncovered")):
        assert rows[line_of(src, text)][0] == state, (text, rows)
    assert rows[line_of(src, "// A")][1] == 1        # only "a"
    assert rows[line_of(src, "// OTHER")][1] == 1    # the f.Add seed "zz"
    assert rows[line_of(src, "if b[0] == 'b'")] == ("covered", 3)
    assert rows[line_of(src, "package classify")] == (None, None)


def test_go_cover_reads_the_fuzz_cache(cgofuzz, gopkg, tmp_path):
    """Entries in $(go env GOCACHE)/fuzz/<import path>/<target> count (the
    package gets a unique import path, removed from the cache after)."""
    imp = "example.com/cgofuzz-cover-test/%d/classify" % os.getpid()
    testlib.write(gopkg / "go.mod", "module %s\n\ngo 1.18\n" % imp)
    cache = testlib.run(["go", "env", "GOCACHE"]).stdout.strip()
    cdir = os.path.join(cache, "fuzz", imp, "FuzzClassify")
    os.makedirs(cdir)
    try:
        testlib.write(os.path.join(cdir, "e"), go_entry(""))
        r = testlib.run([cgofuzz, "cover", "-fuzz=FuzzClassify", "."],
                        cwd=gopkg)
    finally:
        mine = os.path.join(cache, "fuzz", "example.com", "cgofuzz-cover-test")
        shutil.rmtree(os.path.join(mine, str(os.getpid())))
        try:
            os.rmdir(mine)  # unless another run's is still there
        except OSError:
            pass
    assert r.rc == 0, r
    assert "3 corpus entries" in r.stdout, r
    # The empty input reaches `return 0`: 8 of Classify's 9 statements
    # (without it 7: "a", "bxx" and the seed "zz" leave out two returns).
    assert re.search(r"func Classify \(line 4\) 88.9%", r.stdout), r


def test_go_report_renders_in_chromium(cgofuzz, gopkg, tmp_path, tool):
    page = tmp_path / "report.html"
    r = testlib.run([cgofuzz, "cover", "-o", str(page), "."], cwd=gopkg)
    assert r.rc == 0, r
    png = screenshot(tool, page, tmp_path / "report.png")
    c = colours(png, COVERED, UNCOVERED)
    # Each background fills whole table rows (hundreds of pixels each).
    assert c[COVERED] > 5000 and c[UNCOVERED] > 5000, c


def test_cover_rejects_what_it_cannot_use(cgofuzz, gopkg, tmp_path):
    r = testlib.run([cgofuzz, "cover", "-fuzz", "FuzzNope", "."], cwd=gopkg)
    assert r.rc == 2 and "no fuzz target FuzzNope" in r.stderr, r
    plain = tmp_path / "plain.test"
    testlib.run(["go", "test", "-c", "-o", str(plain), "."], cwd=gopkg)
    r = testlib.run([cgofuzz, "cover", str(plain)], cwd=gopkg)
    assert r.rc == 2 and "give the package directory" in r.stderr, r
    r = testlib.run([cgofuzz, "cover", "-corpus", str(tmp_path / "none"),
                     "."], cwd=gopkg)
    assert r.rc == 2 and "not a directory" in r.stderr, r


# -- the C example ---------------------------------------------------------

C_SRC = r"""#include <stdlib.h>
#include <string.h>
#include "cgofuzz/target.h"

static int classify(const unsigned char *p, size_t n) {
  if (n == 0)
    return 0; /* EMPTY */
  if (p[0] == 'a')
    return 1; /* A */
  if (p[0] == 'b') {
    if (n > 3)
      return 2; /* LONG-B */
    return 3; /* SHORT-B */
  }
  if (p[0] == '!')
    abort(); /* CRASH */
  return 4; /* OTHER */
}

static void seeds(cgofuzz_f *f) { cgofuzz_add(f, "zz", (size_t)2); }
static void fuzz(cgofuzz_t *t, const cgofuzz_value *v) {
  if (classify(v[0].s.data, v[0].s.len) == 99)
    cgofuzz_fatalf(t, "never");
}
CGOFUZZ_TARGET(FuzzClassify, seeds, fuzz, CGOFUZZ_BYTES)
"""


@pytest.fixture
def ctarget(tmp_path, tool, cgofuzz, sanitized):
    tool("clang")
    for t in ("llvm-cov-14", "llvm-profdata-14"):
        tool(t)
    d = tmp_path / "ct"
    os.makedirs(d / "testdata" / "fuzz" / "FuzzClassify")
    testlib.write(d / "classify.c", C_SRC)
    cmd = [cgofuzz, "cc", "-cover", "-g", "-O0", "classify.c", "-o", "c.test"]
    if sanitized:  # the runtime libraries are ASan+UBSan builds
        cmd.insert(2, "-fsanitize=address,undefined")
    r = testlib.run(cmd, cwd=d)
    assert r.rc == 0, r
    testlib.write(d / "testdata/fuzz/FuzzClassify/a", go_entry("a"))
    testlib.write(d / "testdata/fuzz/FuzzClassify/b", go_entry("bxx"))
    os.makedirs(d / "raw")
    testlib.write(d / "raw/long", "b1234")  # a raw libFuzzer input
    return d


def llvm_reference(d, inputs, tmp_path):
    """llvm-cov-14 report over our own replay: {file: (covered, total)}."""
    prof = tmp_path / "refprof"
    env = {"LLVM_PROFILE_FILE": str(prof / "%p.profraw")}
    r = testlib.run([str(d / "c.test"), "-test.run=^FuzzClassify$"], cwd=d,
                    env=env)
    assert r.rc == 0, r
    r = testlib.run([str(d / "c.test"), "-runs=1"] + inputs, cwd=d, env=env)
    assert r.rc == 0, r
    merged = tmp_path / "ref.profdata"
    raws = [str(prof / n) for n in os.listdir(prof)]
    assert testlib.run(["llvm-profdata-14", "merge", "-sparse", "-o",
                        str(merged)] + raws).rc == 0
    r = testlib.run(["llvm-cov-14", "report", "-instr-profile=" + str(merged),
                     str(d / "c.test")])
    assert r.rc == 0, r
    files = {}
    for line in r.stdout.splitlines():
        # Filename, Regions, Missed, Cover, Functions, Missed, Executed,
        # Lines, Missed Lines, Cover, Branches, Missed, Cover.
        f = line.split()
        if len(f) == 13 and f[0] != "Filename":
            lines, missed = int(f[7]), int(f[8])
            files[os.path.basename(f[0])] = (lines - missed, lines,
                                             f[9].rstrip("%"))
    return files


def test_c_cover_agrees_with_llvm_cov(cgofuzz, ctarget, tmp_path):
    d = ctarget
    page = tmp_path / "c.html"
    r = testlib.run([cgofuzz, "cover", "-fuzz", "FuzzClassify", "-corpus",
                     "raw", "-o", str(page), "c.test"], cwd=d)
    assert r.rc == 0, r
    ref = llvm_reference(d, ["raw/long"], tmp_path)
    ours = summary_files(r.stdout, "C")
    assert ours["classify.c"] == ref["classify.c"], (r, ref)
    assert ours["total"] == ref["TOTAL"], (r, ref)

    rows = line_rows(file_table(testlib.read(page), "classify.c"))
    src = d / "classify.c"
    for text, state in (("/* A */", "covered"), ("/* LONG-B */", "covered"),
                        ("/* SHORT-B */", "covered"), ("/* OTHER */", "covered"),
                        ("/* EMPTY */", "uncovered"), ("/* CRASH */", "uncovered")):
        assert rows[line_of(src, text)][0] == state, (text, rows)
    assert rows[line_of(src, "/* LONG-B */")][1] == 1   # the raw input
    assert rows[line_of(src, "/* OTHER */")][1] == 1    # the seed "zz"


def test_c_report_renders_in_chromium(cgofuzz, ctarget, tmp_path, tool):
    page = tmp_path / "c.html"
    r = testlib.run([cgofuzz, "cover", "-o", str(page), "c.test"],
                    cwd=ctarget)
    assert r.rc == 0, r
    c = colours(screenshot(tool, page, tmp_path / "c.png"), COVERED, UNCOVERED)
    assert c[COVERED] > 5000 and c[UNCOVERED] > 5000, c


def test_c_cover_survives_a_crashing_entry(cgofuzz, ctarget):
    """A corpus entry that crashes the target costs only its own coverage:
    the entries are replayed one per process, and the crash is named."""
    d = ctarget
    before = testlib.run([cgofuzz, "cover", "c.test"], cwd=d)
    assert before.rc == 0 and "failing" not in before.stdout, before
    testlib.write(d / "testdata/fuzz/FuzzClassify/crash", go_entry("!"))
    r = testlib.run([cgofuzz, "cover", "c.test"], cwd=d)
    assert r.rc == 0, r
    assert "failing corpus entry: crash" in r.stdout, r
    assert "failing corpus entry: a" not in r.stdout, r
    # abort() ends the crashing process before its profile is written.
    assert summary_files(r.stdout, "C") == summary_files(before.stdout, "C")


def test_c_cover_needs_a_coverage_build(cgofuzz, ctarget, sanitized):
    d = ctarget
    cmd = [cgofuzz, "cc", "-g", "classify.c", "-o", "plain.test"]
    if sanitized:
        cmd.insert(2, "-fsanitize=address,undefined")
    assert testlib.run(cmd, cwd=d).rc == 0
    r = testlib.run([cgofuzz, "cover", "plain.test"], cwd=d)
    assert r.rc == 2 and "cgofuzz cc -cover" in r.stderr, r


# -- cgo: Go and C files in one report ----------------------------------------

def test_cgo_package_reports_go_and_c(cgofuzz, tmp_path, tool):
    tool("go")
    tool("clang-14")
    tool("llvm-cov-14")
    d = tmp_path / "cgoclass"
    os.makedirs(d / "testdata/fuzz/FuzzKind")
    testlib.write(d / "go.mod", "module example.com/cgoclass\n\ngo 1.18\n")
    testlib.write(d / "kind.c", "#include <stddef.h>\n\n"
                  "int c_kind(const unsigned char *p, size_t n) {\n"
                  "  if (n == 0)\n    return 0; /* EMPTY */\n"
                  "  if (p[0] == 'x')\n    return 1; /* X */\n"
                  "  return 2; /* OTHER */\n}\n")
    testlib.write(d / "kind.go", "package cgoclass\n\n"
                  "// #include <stddef.h>\n"
                  "// int c_kind(const unsigned char *p, size_t n);\n"
                  "import \"C\"\n\nimport \"unsafe\"\n\n"
                  "func Kind(b []byte) int {\n\tif len(b) == 0 {\n"
                  "\t\treturn int(C.c_kind(nil, 0)) // GO-EMPTY\n\t}\n"
                  "\treturn int(C.c_kind((*C.uchar)(unsafe.Pointer(&b[0])), "
                  "C.size_t(len(b))))\n}\n")
    testlib.write(d / "kind_test.go", "package cgoclass\n\n"
                  "import \"testing\"\n\nfunc FuzzKind(f *testing.F) {\n"
                  "\tf.Add([]byte(\"x1\"))\n"
                  "\tf.Fuzz(func(t *testing.T, b []byte) {\n"
                  "\t\tif Kind(b) > 2 {\n\t\t\tt.Fatal(\"bad\")\n\t\t}\n"
                  "\t})\n}\n")
    testlib.write(d / "testdata/fuzz/FuzzKind/q", go_entry("q"))
    page = tmp_path / "k.html"
    r = testlib.run([cgofuzz, "cover", "-o", str(page), "."], cwd=d)
    assert r.rc == 0, r
    assert summary_files(r.stdout, "Go")["kind.go"][:2] == (2, 3), r
    c = summary_files(r.stdout, "C")
    assert list(c) == ["kind.c", "total"], r  # cgo's generated C left out
    html = testlib.read(page)
    crow = line_rows(file_table(html, "kind.c"))
    src = d / "kind.c"
    assert crow[line_of(src, "/* X */")] == ("covered", 1)
    assert crow[line_of(src, "/* OTHER */")] == ("covered", 1)
    assert crow[line_of(src, "/* EMPTY */")] == ("uncovered", 0)
    grow = line_rows(file_table(html, "kind.go"))
    assert grow[line_of(d / "kind.go", "// GO-EMPTY")][0] == "uncovered"


# -- plot --------------------------------------------------------------------

STATS = HEADER + """0.000,FuzzA,0,0.0,10,2,0,0
0.000,FuzzB,0,0.0,5,1,0,0
3.001,FuzzA,30000,10000.0,40,5,3,0
3.002,FuzzB,20000,6666.7,30,4,3,0
6.000,FuzzA,61000,10333.3,55,7,5,1
6.001,FuzzB,41000,7000.0,31,4,3,0
7.500,FuzzA,75000,9333.3,60,8,6,1
7.500,FuzzB,50000,6000.0,31,4,3,0
"""


def svg_series(svg):
    """{gid: number of vertices of its path} and the SVG's texts."""
    root = ET.parse(svg).getroot()
    series = {}
    for g in root.iter(SVG + "g"):
        gid = g.get("id", "")
        if re.match(r"^(c-coverage|coverage|execs|failures)-\d+$", gid):
            paths = list(g.iter(SVG + "path")) + list(g.iter(SVG + "use"))
            d = " ".join(p.get("d", "") for p in g.iter(SVG + "path"))
            series[gid] = (len(re.findall(r"[ML]", d)), len(paths))
    texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
    return series, texts


def test_plot_draws_both_series_per_target(cgofuzz, tmp_path):
    stats = tmp_path / "run.csv"
    testlib.write(stats, STATS)
    r = testlib.run([cgofuzz, "plot", str(stats), "-o",
                     str(tmp_path / "run.svg")])
    assert r.rc == 0, r
    series, texts = svg_series(tmp_path / "run.svg")
    # Four rows per target: a path of four vertices in each panel.
    for gid in ("coverage-0", "coverage-1", "execs-0", "execs-1"):
        assert series[gid][0] == 4, series
    assert "failures-0" in series and "failures-1" not in series, series
    for label in ("coverage (bits)", "execs/s", "elapsed time (s)",
                  "cgofuzz run: run.csv", "FuzzA", "FuzzB", "failure"):
        assert label in texts, (label, texts)
    # The default output name is FILE with .svg.
    r = testlib.run([cgofuzz, "plot", str(stats)])
    assert r.rc == 0 and os.path.exists(tmp_path / "run.svg"), r


def test_plot_draws_the_cgo_c_part(cgofuzz, tmp_path):
    """The header with c_coverage (what -fuzzstats writes now): a target
    whose cgo C code has coverage gets a dashed line of it; one whose C
    part is 0 throughout gets none. (STATS above, without the column, is
    the older header, still read.)"""
    stats = tmp_path / "c.csv"
    testlib.write(stats, HEADER_C +
                  "0.000,FuzzA,0,0.0,10,2,0,0,4\n"
                  "0.000,FuzzB,0,0.0,5,1,0,0,0\n"
                  "3.001,FuzzA,30000,10000.0,40,5,3,0,25\n"
                  "3.002,FuzzB,20000,6666.7,30,4,3,0,0\n")
    r = testlib.run([cgofuzz, "plot", str(stats), "-o",
                     str(tmp_path / "c.svg")])
    assert r.rc == 0, r
    series, texts = svg_series(tmp_path / "c.svg")
    assert series["c-coverage-0"][0] == 2, series
    assert "c-coverage-1" not in series, series
    assert "FuzzA: cgo C code" in texts, texts


def test_plot_renders_in_chromium(cgofuzz, tmp_path, tool):
    stats = tmp_path / "run.csv"
    testlib.write(stats, STATS)
    svg = tmp_path / "run.svg"
    assert testlib.run([cgofuzz, "plot", str(stats), "-o", str(svg)]).rc == 0
    png = screenshot(tool, svg, tmp_path / "run.png", size="1000,700")
    c = colours(png, BLUE, ORANGE, RED)
    assert c[BLUE] > 200 and c[ORANGE] > 200 and c[RED] > 20, c


def test_plot_long_run_in_minutes(cgofuzz, tmp_path):
    rows = [HEADER] + ["%.3f,T,%d,%.1f,%d,%d,%d,0\n" % (
        t, t * 1000, 1000.0, 10 + t // 60, 3, t // 60) for t in range(0, 1801, 3)]
    stats = tmp_path / "long.csv"
    testlib.write(stats, "".join(rows))
    r = testlib.run([cgofuzz, "plot", str(stats), "-o", str(tmp_path / "l.svg")])
    assert r.rc == 0, r
    series, texts = svg_series(tmp_path / "l.svg")
    assert "elapsed time (min)" in texts and series["coverage-0"][0] >= 2


@pytest.mark.parametrize("body,where", [
    ("elapsed,target\n1,FuzzA\n", ":1: header is"),
    (HEADER + "1.0,FuzzA,10,5.0,3,1,0,0\n2.0,FuzzA,x,5.0,3,1,0,0\n",
     ":3: execs is 'x', want an integer"),
    (HEADER + "1.0,FuzzA,10,5.0,3,1,0\n", ":2: 7 fields, want 8"),
    (HEADER + "2.0,FuzzA,10,5.0,3,1,0,0\n1.0,FuzzA,10,5.0,3,1,0,0\n",
     ":3: elapsed_s 1.000 goes back in time"),
    (HEADER, ": no rows after the header"),
])
def test_plot_rejects_bad_files(cgofuzz, tmp_path, body, where):
    stats = tmp_path / "bad.csv"
    testlib.write(stats, body)
    r = testlib.run([cgofuzz, "plot", str(stats)])
    assert r.rc == 2 and str(stats) + where in r.stderr, r
    assert not os.path.exists(tmp_path / "bad.svg")


def test_plot_names_what_is_missing(cgofuzz, tmp_path):
    stats = tmp_path / "run.csv"
    testlib.write(stats, STATS)
    r = testlib.run([cgofuzz, "plot", str(stats)],
                    env={"CGOFUZZ_PYTHON": str(tmp_path / "no-python")})
    assert r.rc == 1 and "cgofuzz plot needs python3" in r.stderr, r
    r = testlib.run([cgofuzz, "plot", str(tmp_path / "absent.csv")])
    assert r.rc == 2 and "absent.csv" in r.stderr, r


def test_plot_of_a_real_run(cgofuzz, gopkg, tmp_path):
    """`cgofuzz fuzz -fuzzstats` (a counted run, one worker), then plot."""
    h = testlib.run([cgofuzz, "fuzz", "-h"])
    if "fuzzstats" not in h.out:
        pytest.skip("cgofuzz fuzz has no -fuzzstats in this build")
    binary = tmp_path / "g.test"
    r = testlib.run(["go", "test", "-c", "-fuzz=.", "-o", str(binary), "."],
                    cwd=gopkg)
    assert r.rc == 0, r
    stats = tmp_path / "stats.csv"
    r = testlib.run([cgofuzz, "fuzz", "-fuzz=FuzzClassify", "-fuzztime=3000x",
                     "-parallel=1", "-fuzzcachedir=" + str(tmp_path / "cache"),
                     "-fuzzstats=" + str(stats), str(binary)], cwd=gopkg,
                    env=testlib.fuzz_env())
    assert r.rc == 0, r
    rows = testlib.read(stats).splitlines()
    assert rows[0] + "\n" == HEADER_C and len(rows) >= 2, rows
    r = testlib.run([cgofuzz, "plot", str(stats), "-o", str(tmp_path / "r.svg")])
    assert r.rc == 0, r
    series, texts = svg_series(tmp_path / "r.svg")
    assert "coverage-0" in series and "execs-0" in series, series
    assert "FuzzClassify" in texts and "execs/s" in texts, texts


# -- a cgo package: its C files and its preamble's C ---------------------------

CGO_SRC = """package cgocov

/*
static int pre(const unsigned char *p, int n) {
  if (n > 0 && p[0] == 'x') {
    return 1; // PRE-X
  }
  return 0; // PRE-OTHER
}
int lib(const unsigned char *p, int n);
*/
import "C"

import "unsafe"

func Classify(b []byte) int {
	if len(b) == 0 {
		return -1 // GO-EMPTY
	}
	p := (*C.uchar)(unsafe.Pointer(&b[0]))
	return int(C.pre(p, C.int(len(b)))) + int(C.lib(p, C.int(len(b))))
}
"""

CGO_LIB = """int lib(const unsigned char *p, int n) {
  if (n > 2 && p[1] == 'y') {
    return 2; /* LIB-Y */
  }
  return 0; /* LIB-OTHER */
}
"""

CGO_TEST = """package cgocov

import "testing"

func FuzzC(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { Classify(b) })
}
"""


def test_cgo_cover_has_c_files_and_preamble(cgofuzz, tool, tmp_path,
                                            sanitized):
    """A cgo package's C, in a .c file and in the preamble of a .go file,
    is counted by line as llvm-cov counts it, beside its Go statements: the
    preamble's lines are shown at their places in the .go file."""
    tool("go")
    tool("clang-14")
    for t in ("llvm-cov-14", "llvm-profdata-14"):
        tool(t)
    if sanitized:
        pytest.skip("the cover build is clang's own, the same in both builds")
    d = go_module(tmp_path, "cgocov", {"cgocov.go": CGO_SRC, "lib.c": CGO_LIB,
                                       "cgocov_test.go": CGO_TEST},
                  "FuzzC", {"a": "xa"})
    page = tmp_path / "report.html"
    r = testlib.run([cgofuzz, "cover", "-o", str(page), "."], cwd=d)
    assert r.rc == 0, r
    c = dict(re.findall(r"^  (\S+(?: \(C preamble\))?)\s+(\d+/\d+)\s",
                        r.stdout.split("C (lines", 1)[1], re.M))
    assert set(c) == {"lib.c", "cgocov.go (C preamble)", "total"}, r
    html = testlib.read(page)
    pre = line_rows(file_table(html, "cgocov.go (C preamble)"))
    lib = line_rows(file_table(html, "lib.c"))
    src, libsrc = d / "cgocov.go", d / "lib.c"
    assert pre[line_of(src, "// PRE-X")] == ("covered", 1), pre
    assert pre[line_of(src, "// PRE-OTHER")][0] == "uncovered", pre
    assert pre[line_of(src, "package cgocov")] == (None, None), pre
    assert lib[line_of(libsrc, "/* LIB-OTHER */")] == ("covered", 1), lib
    assert lib[line_of(libsrc, "/* LIB-Y */")][0] == "uncovered", lib
    gorows = line_rows(file_table(html, "cgocov.go"))
    assert gorows[line_of(src, "// GO-EMPTY")][0] == "uncovered", gorows
