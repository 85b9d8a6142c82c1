#!/usr/bin/env python3
"""Magma A/B: two or more cgofuzz builds (and libFuzzer) on the bugs a
target triggers within seconds, with the canary file read every 20 ms.

magma_bench.py answers issue 26's question (10-minute campaigns, 1 s
reads). This one answers an engine question: did a change make the
shallow bugs come sooner? It relinks the target's harness (built by
magma_bench.py, whose cache it uses) with each cgofuzz build given, then
runs short campaigns, the variants alternating two at a time so that all
meet the same load, and prints per bug the runs that triggered it and the
median and spread of the times to trigger (a miss counts as the cap).

usage:
  bench/magma/magma_ab.py --target libpng --cap 20 --runs 6 \\
      old=/path/to/old/build/bin/cgofuzz new=build/bin/cgofuzz [--libfuzzer]

Each NAME=CGOFUZZ is a cgofuzz binary in a build or install tree (its
runtime libraries are found as `cgofuzz cc` finds them). The harness needs
magma_bench.py's build of the target first (`bench/magma/magma_bench.py
--targets T --build-only`). Relinked harnesses and campaign directories go
to bench/.cache/magma/ab/<stamp>/.
"""
import argparse
import concurrent.futures
import datetime
import os
import re
import statistics
import sys
import types

import magma_bench as mb


def relink(cache, magma, target, name, cgofuzz, outroot):
    """The target's harness linked with the engine of cgofuzz (a build or
    install tree's binary), from magma_bench.py's build of the target."""
    out = os.path.join(outroot, name, target)
    os.makedirs(out, exist_ok=True)
    work = os.path.join(cache, "build", "cgofuzz", target)
    if not os.path.isdir(work):
        raise mb.Fail("no build of %s in %s: run bench/magma/magma_bench.py "
                      "--targets %s --build-only first" % (target, work,
                                                           target))
    a = types.SimpleNamespace(cgofuzz=os.path.abspath(cgofuzz), clang="clang",
                              clangxx="clang++", no_reset=False)
    env = mb.engine_env(a, "cgofuzz", magma, out)
    blog = os.path.join(out, "link.log")
    mb.build_magma_runtime(env, magma, out, blog, True)
    mb.link_harness(env, target, work, blog)
    return os.path.join(out, mb.TARGETS[target]["harness"]), \
        mb.engine_digest(a, "cgofuzz")


def final_cov(rec):
    """The last `cov:` libFuzzer's status lines gave in a campaign's log
    (both engines print them): edges covered at the end."""
    with open(os.path.join(rec["dir"], "log.txt"), errors="replace") as f:
        m = re.findall(r"^#\d+\s+\w+\s+cov: (\d+)", f.read(), re.M)
    return int(m[-1]) if m else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="libpng")
    ap.add_argument("--cap", type=float, default=20)
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--poll", type=float, default=0.02)
    ap.add_argument("--libfuzzer", action="store_true",
                    help="run magma_bench.py's libFuzzer build too")
    ap.add_argument("--cache", default=os.path.join(mb.BENCH, ".cache",
                                                    "magma"))
    ap.add_argument("--out", help="also write the report here")
    ap.add_argument("variants", nargs="+", metavar="NAME=CGOFUZZ")
    args = ap.parse_args()
    if args.target not in mb.TARGETS:
        ap.error("unknown target %s" % args.target)
    magma = os.path.join(args.cache, "magma")
    seeds = os.path.join(args.cache, "seeds", args.target)
    if not os.path.isdir(seeds):
        ap.error("no pruned seeds in %s: run bench/magma/magma_bench.py first" %
                 seeds)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    root = os.path.join(args.cache, "ab", stamp)
    binaries, idents = [], {}
    for v in args.variants:
        name, sep, path = v.partition("=")
        if not sep or not name or not os.access(path, os.X_OK):
            ap.error("%s: want NAME=PATH-TO-CGOFUZZ" % v)
        b, ident = relink(args.cache, magma, args.target, name, path, root)
        binaries.append((name, b))
        idents[name] = "%s (%s)" % (path, ident)
    if args.libfuzzer:
        b = os.path.join(args.cache, "out", "libfuzzer", args.target,
                         mb.TARGETS[args.target]["harness"])
        binaries.append(("libfuzzer", b))
        idents["libfuzzer"] = b
    cargs = types.SimpleNamespace(cap=args.cap, poll=args.poll, timeout=10,
                                  rss_limit_mb=2048, grace=10)
    rundir = os.path.join(root, "runs")
    os.makedirs(rundir)
    jobs = [(name, b, i) for i in range(args.runs) for name, b in binaries]
    res = {}
    mb.log("%d campaigns of %.0f s, 2 at a time: about %.0f min" % (
        len(jobs), args.cap, len(jobs) * args.cap / 2 / 60))
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        futs = {ex.submit(mb.campaign, cargs, args.target, name, b, seeds,
                          rundir, i): name for name, b, i in jobs}
        for f in concurrent.futures.as_completed(futs):
            res.setdefault(futs[f], []).append(f.result())
    bugs = sorted({b for rs in res.values() for r in rs
                   for b in r["triggered"]})
    lines = ["# Magma A/B on %s: time to trigger (issue 26)" % args.target,
             "",
             "%s; %d run(s) per variant of %.0f s each, 2 at a time, the "
             "variants alternating; canary file read every %.2f s; a miss "
             "counts as the cap. Campaign directories: `%s`." % (
                 datetime.date.today().isoformat(), args.runs, args.cap,
                 args.poll, os.path.relpath(rundir, mb.ROOT)),
             ""]
    for name, _ in binaries:
        lines.append("- %s: %s" % (name, idents[name]))
    lines += ["", "| variant | execs (median) | edges (median) | " +
              " | ".join("%s: runs, median s, times" % b for b in bugs) +
              " |", "|---|---|---|" + "---|" * len(bugs)]
    for name, _ in binaries:
        rs = res[name]
        cells = []
        for b in bugs:
            ts = sorted(r["triggered"].get(b, args.cap) for r in rs)
            cells.append("%d/%d, %.2f, %s" % (
                sum(b in r["triggered"] for r in rs), len(rs),
                statistics.median(ts), " ".join("%.1f" % t for t in ts)))
        lines.append("| %s | %d | %d | %s |" % (
            name, statistics.median(r["execs"] for r in rs),
            statistics.median(final_cov(r) for r in rs), " | ".join(cells)))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except mb.Fail as ex:
        print("magma_ab: %s" % ex, file=sys.stderr)
        sys.exit(1)
