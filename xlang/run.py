#!/usr/bin/env python3
"""run.py: replay one fuzz corpus through a Go fuzz target and a C target.

  xlang/run.py --go-pkg DIR --c-bin BIN [--corpus DIR] [--target FuzzX]
               [--go-c-pkg DIR] [--ctest-dir BUILD --ctest-name NAME]
               [--timeout S]

The Go package is compiled once with `go test -c`; the Go test binary and
the C target binary (cgofuzz, regression mode) then run with -test.v in the
same scratch directory, whose testdata/fuzz/<Target> is a symlink to the
corpus, so both read exactly the same files. With --go-c-pkg, a Go package
whose fuzz test of the same name runs the C target under go test
(gofuzz.FuzzC, e.g. examples/go/cunescape) is a column too ("gofuzz"). With
--ctest-dir, the ctest
test NAME (registered by cgofuzz_add_fuzz_target) runs too, as a third
column; it reads the corpus that test was registered with (SEED_CORPUS).

Per entry (the f.Add seeds, seed#N, are entries too) it prints the status in
each language and the "xlang-result:" line each side logged, if any. Exit
status: 0 if every entry passed everywhere and the logged results agree;
1 on any failure, missing entry or disagreement; 2 on a usage or build
error.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

RESULT_MARK = "xlang-result:"
RUN_RE = re.compile(r"^\s*=== (?:RUN|CONT|PAUSE)\s+(\S+)")
END_RE = re.compile(r"^\s*--- (PASS|FAIL|SKIP): (\S+)")


def parse(output, target, rc):
    """Returns {entry: [status, result, messages]} from -test.v output.

    Log lines are attributed to the entry of the last === RUN or --- line
    (Go streams logs after === RUN, cgofuzz prints them after ---)."""
    entries = {}
    cur = None
    prefix = target + "/"
    for line in output.splitlines():
        m = RUN_RE.match(line)
        if m:
            name = m.group(1)
            cur = name[len(prefix):] if name.startswith(prefix) else None
            if cur is not None:
                entries.setdefault(cur, ["RUN", None, []])
            continue
        m = END_RE.match(line)
        if m:
            name = m.group(2)
            cur = name[len(prefix):] if name.startswith(prefix) else None
            if cur is not None:
                entries.setdefault(cur, ["RUN", None, []])[0] = m.group(1)
            continue
        if cur is None:
            continue
        text = line.strip()
        if RESULT_MARK in text:
            entries[cur][1] = text.split(RESULT_MARK, 1)[1].strip()
        elif text and not text.startswith(("PASS", "FAIL", "ok ")):
            entries[cur][2].append(text)
    for e in entries.values():
        if e[0] == "RUN":  # started, never finished: the process died
            e[0] = "CRASH" if rc != 0 else "NORESULT"
    return entries


def run(cmd, cwd, timeout, env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout, env=env)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return -1, out + "\n(timed out after %ss)\n" % timeout


def run_ctest(build, name, target, timeout):
    """Runs one ctest test (no -test.v: cgofuzz prints only failures), so an
    entry is FAIL if listed as failed and PASS otherwise (if it ran)."""
    rc, out = run(["ctest", "--test-dir", build, "-R", "^%s$" % re.escape(name),
                   "-V", "--timeout", str(timeout)], None, timeout + 10)
    # ctest -V prefixes the test's lines with "N: ".
    body = "\n".join(re.sub(r"^\d+: ", "", l) for l in out.splitlines())
    if "No tests were found" in out:
        return rc, out, None
    return rc, out, parse(body, target, 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--go-pkg", required=True, help="Go package directory")
    ap.add_argument("--c-bin", required=True, help="C target binary")
    ap.add_argument("--corpus", help="corpus directory "
                    "(default GO_PKG/testdata/fuzz/TARGET)")
    ap.add_argument("--target", help="fuzz target name "
                    "(default: the corpus directory's name)")
    ap.add_argument("--go", default=shutil.which("go") or "/usr/local/go/bin/go")
    ap.add_argument("--go-c-pkg", help="Go package running the C target "
                    "through gofuzz.FuzzC (optional)")
    ap.add_argument("--ctest-dir", help="ctest build directory (optional)")
    ap.add_argument("--ctest-name", help="ctest test name (with --ctest-dir)")
    ap.add_argument("--timeout", type=float, default=60,
                    help="seconds per subprocess (default 60)")
    ap.add_argument("-q", action="store_true", help="print the table only")
    a = ap.parse_args()
    if not a.corpus and not a.target:
        ap.error("need --corpus or --target")
    target = a.target or os.path.basename(os.path.normpath(a.corpus))
    corpus = os.path.abspath(a.corpus or os.path.join(
        a.go_pkg, "testdata", "fuzz", target))
    if not os.path.isdir(corpus):
        print("run.py: no corpus directory %s" % corpus, file=sys.stderr)
        return 2
    if bool(a.ctest_dir) != bool(a.ctest_name):
        ap.error("--ctest-dir and --ctest-name go together")
    cbin = os.path.abspath(a.c_bin)

    with tempfile.TemporaryDirectory(prefix="xlang.") as work:
        os.makedirs(os.path.join(work, "testdata", "fuzz"))
        os.symlink(corpus, os.path.join(work, "testdata", "fuzz", target))
        exes = [("go", os.path.join(work, "go.test"), a.go_pkg),
                ("c", cbin, None)]
        if a.go_c_pkg:
            exes.append(("gofuzz", os.path.join(work, "gofuzz.test"),
                         a.go_c_pkg))
        for _, exe, pkg in exes:
            if pkg is None:
                continue
            rc, out = run([a.go, "test", "-c", "-o", exe, "."],
                          os.path.abspath(pkg), a.timeout * 3)
            if rc != 0:
                print("run.py: go test -c failed in %s:\n%s" % (pkg, out),
                      file=sys.stderr)
                return 2
        pat = "-test.run=^%s$" % re.escape(target)
        tmo = "-test.timeout=%ds" % max(1, int(a.timeout))
        sides = []
        for lang, exe, _ in exes:
            rc, out = run([exe, "-test.v", pat, tmo], work, a.timeout)
            sides.append((lang, rc, out, parse(out, target, rc)))
    if a.ctest_dir:
        rc, out, res = run_ctest(a.ctest_dir, a.ctest_name, target, a.timeout)
        if res is None:
            print("run.py: ctest found no test %s in %s" %
                  (a.ctest_name, a.ctest_dir), file=sys.stderr)
            return 2
        sides.append(("ctest", rc, out, res))

    files = sorted(f for f in os.listdir(corpus)
                   if os.path.isfile(os.path.join(corpus, f)))
    # Entries only one side has (the f.Add seeds, seed#N) first.
    extra = []
    for _, _, _, res in sides:
        extra += [n for n in res if n not in files and n not in extra]
    names = extra + files

    bad = 0
    rows = []
    for n in names:
        stats = []
        results = set()
        for lang, rc, _, res in sides:
            e = res.get(n)
            if e is None:
                # Without -test.v (ctest) passing entries are not printed:
                # they passed if the run ended normally or with reported
                # failures of other entries.
                ran = rc == 0 or any(x[0] == "FAIL" for x in res.values())
                st = "MISSING" if lang != "ctest" else (
                    "PASS" if ran else "?")
            else:
                st = e[0]
                if lang != "ctest" and e[1] is not None:
                    results.add(e[1])
            stats.append(st)
        ok = all(s == "PASS" for s in stats) and len(results) <= 1
        if len(results) > 1:
            verdict = "DIFF"
        elif len(set(stats)) > 1:
            verdict = "DIFF"
        elif not ok:
            verdict = "FAIL"
        else:
            verdict = "ok"
        if verdict != "ok":
            bad += 1
        shown = " / ".join(
            "%s: %s" % (lang, (res.get(n) or [None, "-"])[1] or "-")
            for lang, _, _, res in sides if lang != "ctest") \
            if len(results) > 1 else (results.pop() if results else "-")
        rows.append([n] + stats + [verdict, shown])

    head = ["entry"] + [s[0] for s in sides] + ["verdict", "result"]
    w = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    fmt = " | ".join("%%-%ds" % x for x in w[:-1]) + " | %s"
    print(fmt % tuple(head))
    print("-+-".join("-" * x for x in w[:-1]) + "-+-" + "-" * w[-1])
    for r in rows:
        print(fmt % tuple(r))

    if not a.q:
        for lang, rc, out, res in sides:
            for n in names:
                e = res.get(n)
                if e and e[0] not in ("PASS", "SKIP") and e[2]:
                    print("%s %s/%s:" % (lang, target, n))
                    for m in e[2]:
                        print("    " + m)
            if rc != 0 and not any(e[0] == "FAIL" for e in res.values()):
                print("%s: exit status %d\n%s" % (lang, rc, out[-2000:]))
    print("%d entries, %d with a failure or disagreement (corpus %s)" %
          (len(names), bad, corpus))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
