#!/usr/bin/env python3
"""Edges by function, from covdrive's COVDRIVE_PCS files (bench/c/covdrive.c).

  bench/cgo/edge_funcs.py BIN A.pcs            # how much lies in functions entered
  bench/cgo/edge_funcs.py BIN A.pcs B.pcs      # the functions where A and B differ

BIN is the coverage binary that wrote the files, linked with -no-pie (so the
addresses are the same in every run) and -g; names come from addr2line
(binutils). One file: its edges, the functions some input entered, and the
edges left uncovered inside them (an upper bound of what more fuzzing could
reach there; code the harness never calls is outside it). Two files: the
edges only one of them reached, counted by function, most first."""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import stdout_of  # noqa: E402


def read(path):
    """{address: reached} of a COVDRIVE_PCS file."""
    out = {}
    with open(path) as f:
        for line in f:
            a, c = line.split()
            out[a] = c == "1"
    return out


def functions(binary, addrs):
    """{address: function name} through addr2line -f, in batches."""
    addrs = sorted(addrs)
    names = {}
    for i in range(0, len(addrs), 2000):
        part = addrs[i:i + 2000]
        lines = stdout_of(["addr2line", "-f", "-e", binary] +
                          ["0x" + a for a in part]).split("\n")
        for a, name in zip(part, lines[0::2]):
            names[a] = name
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("pcs", nargs="+", help="one or two COVDRIVE_PCS files")
    ap.add_argument("--most", type=int, default=25)
    a = ap.parse_args()
    if len(a.pcs) > 2:
        ap.error("one or two COVDRIVE_PCS files")
    files = [read(p) for p in a.pcs]
    names = functions(a.binary, set().union(*files))
    if len(files) == 1:
        (f,) = files
        total, hit = collections.Counter(), collections.Counter()
        for addr, reached in f.items():
            total[names[addr]] += 1
            hit[names[addr]] += reached
        entered = [n for n in total if hit[n]]
        print("%s: %d edges, %d reached; %d of %d functions entered, "
              "holding %d edges, %d of them not reached" % (
                  a.pcs[0], sum(total.values()), sum(hit.values()),
                  len(entered), len(total),
                  sum(total[n] for n in entered),
                  sum(total[n] - hit[n] for n in entered)))
        return 0
    x, y = files
    for label, mine, other in ((a.pcs[0], x, y), (a.pcs[1], y, x)):
        only = [addr for addr, r in mine.items() if r and not other.get(addr)]
        c = collections.Counter(names[addr] for addr in only)
        print("only %s: %d edges" % (label, len(only)))
        for name, n in c.most_common(a.most):
            print("  %6d %s" % (n, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
