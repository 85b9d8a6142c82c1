#!/usr/bin/env python3
"""A/B of the comparison-burst back-off cap of C target workers.

Runs the cgofuzz build of one bench/c harness (default png_read, libpng
read) for --seconds, --runs times per cap value (CGOFUZZ_BURST_MAX; see
csrc/runtime/worker_exact.c), alternating values, --jobs runs at a time, and
prints the median edges (replayed through the common coverage build, as
bench/c/c_bench.py counts them) and execs/sec per value. Uses bench/c/c_bench.py's
builds (bench/.cache); run bench/c/c_bench.py --quick once first if missing.

With --libfuzzer, libFuzzer runs the same harness as many times, as the
reference row (its corpus replayed through the same coverage build).

usage: bench/c/burst_ab.py [--harness png_read] [--caps 4,16,32,256]
                         [--runs 3] [--seconds 60] [--jobs 2] [--libfuzzer]
"""
import argparse
import concurrent.futures
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import c_bench  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--harness", default="png_read")
    ap.add_argument("--caps", default="4,16,32,256")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--build", default=os.path.join(c_bench.ROOT, "build"))
    ap.add_argument("--libfuzzer", action="store_true")
    a = ap.parse_args()
    caps = [int(c) for c in a.caps.split(",")]
    notes = []
    libs = c_bench.build_cgofuzz(a.build, False)
    flavours = ["cg", "cov"] + (["lf"] if a.libfuzzer else [])
    bins = c_bench.build_all(flavours, [a.harness], libs, 2, notes)
    cg, cov = bins[("cg", a.harness)], bins[("cov", a.harness)]
    cfg = {"self": True}
    keys = caps + (["libFuzzer"] if a.libfuzzer else [])
    jobs = [(k, i) for i in range(a.runs) for k in keys]

    def one(job):
        cap, i = job
        if cap == "libFuzzer":
            r = c_bench.run_libfuzzer(bins[("lf", a.harness)],
                                      "ab-%s-lf-%d" % (a.harness, i),
                                      a.seconds, c_bench.SEEDS[a.harness])
            edges, files, err = c_bench.count_edges(cov, r["corpus"])
            return cap, edges, r["eps"], err
        env = dict(os.environ, CGOFUZZ_BURST_MAX=str(cap))  # to workers too
        r = c_bench.run_cgofuzz(cfg, cg, "ab-%s-%d-%d" % (a.harness, cap, i),
                                a.seconds, c_bench.SEEDS[a.harness], env=env)
        edges, files, err = c_bench.count_edges(cov, r["corpus"])
        return cap, edges, r["eps"], err

    res = {c: [] for c in keys}
    for k in range(0, len(jobs), a.jobs):
        batch = jobs[k:k + a.jobs]
        with concurrent.futures.ThreadPoolExecutor(len(batch)) as ex:
            for cap, edges, eps, err in ex.map(one, batch):
                print("%-9s: edges %s, %s execs/s %s" % (
                    cap, edges, "%.0f" % eps if eps else "?", err),
                    flush=True)
                res[cap].append((edges or 0, eps or 0))
    print("\n%-9s %8s %10s  %s  (median of %d x %d s, %s)" % (
        "cap", "edges", "execs/s", "all runs' edges", a.runs, a.seconds,
        a.harness))
    for c in keys:
        e = statistics.median(x[0] for x in res[c])
        s = statistics.median(x[1] for x in res[c])
        print("%-9s %8.0f %10.0f  %s" % (c, e, s,
                                         sorted(x[0] for x in res[c])))


if __name__ == "__main__":
    main()
