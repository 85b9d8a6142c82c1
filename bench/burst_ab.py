#!/usr/bin/env python3
"""A/B of the comparison-burst back-off cap of C target workers.

Runs the cgofuzz build of one bench/c harness (default png_read, libpng
read) for --seconds, --runs times per cap value (CGOFUZZ_BURST_MAX; see
csrc/worker_server.c), alternating values, --jobs runs at a time, and
prints the median edges (replayed through the common coverage build, as
bench/c_bench.py counts them) and execs/sec per value. Uses bench/c_bench.py's
builds (bench/.cache); run bench/c_bench.py --quick once first if missing.

usage: bench/burst_ab.py [--harness png_read] [--caps 4,16,32,256]
                         [--runs 3] [--seconds 60] [--jobs 2]
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
    a = ap.parse_args()
    caps = [int(c) for c in a.caps.split(",")]
    notes = []
    libs = c_bench.build_cgofuzz(a.build, False)
    bins = c_bench.build_all(["cg", "cov"], [a.harness], libs, 2, notes)
    cg, cov = bins[("cg", a.harness)], bins[("cov", a.harness)]
    cfg = {"self": True}
    jobs = [(cap, i) for i in range(a.runs) for cap in caps]

    def one(job):
        cap, i = job
        env = dict(os.environ, CGOFUZZ_BURST_MAX=str(cap))  # to workers too
        r = c_bench.run_cgofuzz(cfg, cg, "ab-%s-%d-%d" % (a.harness, cap, i),
                                a.seconds, c_bench.SEEDS[a.harness], env=env)
        edges, files, err = c_bench.count_edges(cov, r["corpus"])
        return cap, edges, r["eps"], err

    res = {c: [] for c in caps}
    for k in range(0, len(jobs), a.jobs):
        batch = jobs[k:k + a.jobs]
        with concurrent.futures.ThreadPoolExecutor(len(batch)) as ex:
            for cap, edges, eps, err in ex.map(one, batch):
                print("cap %4d: edges %s, %s execs/s %s" % (
                    cap, edges, "%.0f" % eps if eps else "?", err),
                    flush=True)
                res[cap].append((edges or 0, eps or 0))
    print("\n%-6s %8s %10s  (median of %d x %d s, %s)" % (
        "cap", "edges", "execs/s", a.runs, a.seconds, a.harness))
    for c in caps:
        e = statistics.median(x[0] for x in res[c])
        s = statistics.median(x[1] for x in res[c])
        print("%-6d %8.0f %10.0f" % (c, e, s))


if __name__ == "__main__":
    main()
