"""plot.py: `cgofuzz plot FILE [-o run.svg]`, a -fuzzstats run drawn as SVG.

Input: the CSV `cgofuzz fuzz -fuzzstats FILE` writes (docs/reports.md):
header `elapsed_s,target,execs,execs_per_s,coverage,corpus,new_inputs,
failures,c_coverage` (files without the last column, from before it, are
read too), one row per tick per target, targets possibly interleaved.
Output: one SVG (matplotlib, text kept as text) with two panels sharing the
time axis, coverage (bits) above and execs/s below, one line per target in
the same colour in both (and, for a target whose cgo C code has coverage,
a dashed line of the C part), a cross where a target's failure count rises, a
title, a legend and labelled axes with units. Like afl-plot, it needs no
server: open it in a browser.

Invariants: rows are plotted in file order per target (elapsed_s must not
go backwards within a target); a malformed file is reported as
FILE:LINE: reason with exit status 2 and nothing is written.
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deps  # noqa: E402
from outfile import write_replacing  # noqa: E402

COLUMNS = ["elapsed_s", "target", "execs", "execs_per_s", "coverage",
           "corpus", "new_inputs", "failures", "c_coverage"]
# The header before c_coverage was written (its rows read as c_coverage 0).
OLD_COLUMNS = COLUMNS[:-1]
INTS = ["execs", "coverage", "corpus", "new_inputs", "failures",
        "c_coverage"]
FLOATS = ["elapsed_s", "execs_per_s"]


class BadInput(Exception):
    pass


def read_stats(path):
    """Returns {target: [row dict, ...]} in first-seen target order."""
    try:
        f = open(path, newline="")
    except OSError as e:
        raise BadInput("%s: %s" % (path, e.strerror))
    series = {}
    with f:
        r = csv.reader(f)
        header = next(r, None)
        if header is None:
            raise BadInput("%s: empty file (want the header %s)"
                           % (path, ",".join(COLUMNS)))
        cols = [h.strip() for h in header]
        if cols not in (COLUMNS, OLD_COLUMNS):
            raise BadInput("%s:1: header is %r, want %s"
                           % (path, ",".join(header), ",".join(COLUMNS)))
        for row in r:
            line = r.line_num
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != len(cols):
                raise BadInput("%s:%d: %d fields, want %d"
                               % (path, line, len(row), len(cols)))
            rec = dict(zip(cols, (c.strip() for c in row)))
            rec.setdefault("c_coverage", "0")
            for k in INTS:
                try:
                    rec[k] = int(rec[k])
                except ValueError:
                    raise BadInput("%s:%d: %s is %r, want an integer"
                                   % (path, line, k, rec[k]))
            for k in FLOATS:
                try:
                    rec[k] = float(rec[k])
                except ValueError:
                    raise BadInput("%s:%d: %s is %r, want a number"
                                   % (path, line, k, rec[k]))
            if not rec["target"]:
                raise BadInput("%s:%d: empty target" % (path, line))
            rows = series.setdefault(rec["target"], [])
            if rows and rec["elapsed_s"] < rows[-1]["elapsed_s"]:
                raise BadInput("%s:%d: elapsed_s %.3f goes back in time for "
                               "%s (last %.3f)" % (path, line, rec["elapsed_s"],
                                                   rec["target"],
                                                   rows[-1]["elapsed_s"]))
            rows.append(rec)
    if not series:
        raise BadInput("%s: no rows after the header" % path)
    return series


def time_unit(max_s):
    if max_s >= 2 * 3600:
        return 3600.0, "h"
    if max_s >= 10 * 60:
        return 60.0, "min"
    return 1.0, "s"


def draw(series, out, title):
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text
    matplotlib.rcParams["svg.hashsalt"] = "cgofuzz"  # stable ids
    import matplotlib.pyplot as plt

    max_s = max(r["elapsed_s"] for rows in series.values() for r in rows)
    div, unit = time_unit(max_s)
    fig, (ax_cov, ax_eps) = plt.subplots(2, 1, sharex=True, figsize=(9, 6.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fail_marked = False
    for i, (target, rows) in enumerate(series.items()):
        c = colors[i % len(colors)]
        t = [r["elapsed_s"] / div for r in rows]
        (lc,) = ax_cov.plot(t, [r["coverage"] for r in rows], color=c,
                            label=target, linewidth=1.8)
        lc.set_gid("coverage-%d" % i)
        if any(r["c_coverage"] for r in rows):
            (lcc,) = ax_cov.plot(t, [r["c_coverage"] for r in rows], color=c,
                                 linestyle="--", linewidth=1.2,
                                 label="%s: cgo C code" % target)
            lcc.set_gid("c-coverage-%d" % i)
        (le,) = ax_eps.plot(t, [r["execs_per_s"] for r in rows], color=c,
                            label=target, linewidth=1.8)
        le.set_gid("execs-%d" % i)
        # A failure is marked where the target's failure count rises.
        prev = 0
        ft, fc = [], []
        for r, x in zip(rows, t):
            if r["failures"] > prev:
                ft.append(x)
                fc.append(r["coverage"])
            prev = r["failures"]
        if ft:
            m = ax_cov.scatter(ft, fc, marker="x", s=80, color="#d62728",
                               linewidths=2.5, zorder=5,
                               label=None if fail_marked else "failure")
            m.set_gid("failures-%d" % i)
            for x in ft:
                ax_eps.axvline(x, color="#d62728", linestyle=":",
                               linewidth=1)
            fail_marked = True
    ax_cov.set_ylabel("coverage (bits)")
    ax_eps.set_ylabel("execs/s")
    ax_eps.set_xlabel("elapsed time (%s)" % unit)
    ax_cov.set_ylim(bottom=0)
    ax_eps.set_ylim(bottom=0)
    ax_eps.set_xlim(left=0)
    for ax in (ax_cov, ax_eps):
        ax.grid(True, color="#dddddd", linewidth=0.6)
    ax_cov.legend(loc="lower right", fontsize="small")
    totals = []
    for target, rows in series.items():
        last = rows[-1]
        totals.append("%s: %d execs, %d bits, %d failures" % (
            target, last["execs"], last["coverage"], last["failures"]))
    ax_cov.set_title(title, fontsize="large")
    fig.text(0.01, 0.005, "; ".join(totals)[:200], fontsize="x-small",
             color="#555555")
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    try:
        write_replacing(out, lambda f: fig.savefig(
            f, format="svg", metadata={"Date": None}), mode="wb")
    finally:
        plt.close(fig)


def main(argv):
    ap = argparse.ArgumentParser(
        prog="cgofuzz plot",
        description="Draws a cgofuzz fuzz -fuzzstats file: coverage and "
        "execs/s over elapsed time, one line per target, failures marked.")
    ap.add_argument("--prog", help=argparse.SUPPRESS)
    ap.add_argument("file", metavar="FILE", help="the -fuzzstats CSV file")
    ap.add_argument("-o", metavar="SVG", dest="out",
                    help="output file (default: FILE with .svg)")
    ap.add_argument("-title", metavar="TEXT", default=None,
                    help="the plot's title (default: cgofuzz run: FILE)")
    a = ap.parse_args(argv)
    prog = a.prog or "cgofuzz plot"
    ap.prog = prog
    try:
        series = read_stats(a.file)
    except BadInput as e:
        sys.stderr.write("%s: %s\n" % (prog, e))
        return 2
    deps.require(prog, ["matplotlib"])
    out = a.out or (os.path.splitext(a.file)[0] + ".svg")
    title = a.title or "cgofuzz run: %s" % os.path.basename(a.file)
    try:
        draw(series, out, title)
    except OSError as e:
        sys.stderr.write("%s: %s: %s\n" % (prog, e.filename or out,
                                           e.strerror))
        return 1
    print("%s: wrote %s (%d target%s)" % (prog, out, len(series),
                                           "" if len(series) == 1 else "s"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
