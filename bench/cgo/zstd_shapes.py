#!/usr/bin/env python3
"""What a zstd corpus holds of the shapes behind zstd's deeper decoders.

For each corpus directory (raw inputs, as libFuzzer's; or Go's corpus
files, `go test fuzz v1`, whose []byte value benchlib.go_string reads),
counts by the zstd format's own headers (RFC 8878: frame header, block
header, literals section header):

  inputs          files read
  long            inputs of 110 bytes or more
  long_current    of those, frames of the current format (magic 0xFD2FB528)
  big_block       compressed blocks of 100 bytes or more, whole in the input
  huffman_4       Huffman-compressed literal sections in four streams
  x2_ratio        literal sections whose sizes make the decoder pick the
                  double-symbol Huffman tables (HUF_selectDecoder: compressed
                  12-19% of regenerated and at least 768 bytes regenerated,
                  or more of both), whole in the input

  bench/cgo/zstd_shapes.py DIR...

The counts explain rounds of bench/cgo/cgo_bench.py on DataDog/zstd: the
rounds where libFuzzer reached the double-symbol decoder were those whose
corpus held hundreds of big blocks (docs/cgo.md, "The cgo loop").
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402

MAGIC = 0xFD2FB528


def frame_blocks(b):
    """(block type, block size, whole, offset of its content) for each
    block of the first frame, when b starts with a current-format frame."""
    if len(b) < 6 or int.from_bytes(b[:4], "little") != MAGIC:
        return
    fhd = b[4]
    single = (fhd >> 5) & 1
    pos = 5 + (0 if single else 1) + [0, 1, 2, 4][fhd & 3]
    pos += [1 if single else 0, 2, 4, 8][fhd >> 6]
    while pos + 3 <= len(b):
        h = int.from_bytes(b[pos:pos + 3], "little")
        kind, size = (h >> 1) & 3, h >> 3
        pos += 3
        body = 1 if kind == 1 else size
        yield kind, size, pos + body <= len(b), pos
        if kind == 3 or h & 1:
            return
        pos += body


def literals(b, at):
    """(streams, regenerated, compressed) of a Huffman literal section at
    b[at:], or None."""
    lit = b[at:at + 5]
    if len(lit) < 5 or lit[0] & 3 not in (2, 3):
        return None
    fmt = (lit[0] >> 2) & 3
    if fmt in (0, 1):
        r = (lit[0] >> 4) | ((lit[1] & 0x3F) << 4)
        c = (lit[1] >> 6) | (lit[2] << 2)
    elif fmt == 2:
        r = (lit[0] >> 4) | (lit[1] << 4) | ((lit[2] & 3) << 12)
        c = (lit[2] >> 2) | (lit[3] << 6)
    else:
        r = (lit[0] >> 4) | (lit[1] << 4) | ((lit[2] & 0x3F) << 12)
        c = (lit[2] >> 6) | (lit[3] << 2) | (lit[4] << 10)
    return (1 if fmt == 0 else 4), r, c


def double_symbol(r, c):
    """Whether HUF_selectDecoder picks the double-symbol tables: its
    timing table (zstd 1.5) for compressed / regenerated in sixteenths."""
    if not r or c >= r:
        return False
    q = c * 16 // r
    return (q == 2 and r >= 768) or (q in (3, 4) and r >= 1280) or \
        (q >= 5 and r >= 1536)


def shapes(inputs):
    n = collections.Counter()
    for b in inputs:
        n["inputs"] += 1
        if len(b) >= 110:
            n["long"] += 1
            n["long_current"] += int.from_bytes(b[:4], "little") == MAGIC
        for kind, size, whole, at in frame_blocks(b):
            if kind != 2:
                continue
            n["big_block"] += size >= 100 and whole
            lit = literals(b, at)
            if lit:
                streams, r, c = lit
                n["huffman_4"] += streams == 4
                n["x2_ratio"] += double_symbol(r, c) and at + c <= len(b)
    return n


def inputs(d):
    """d's inputs as bytes: a Go corpus file's []byte value, else the
    file as it is; a Go corpus file that does not parse is skipped."""
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), "rb") as f:
            b = f.read()
        if not b.startswith(b"go test fuzz v1"):
            yield b
            continue
        text = b.decode("utf-8", errors="surrogateescape")
        try:
            yield benchlib.go_string(text, text.index("(") + 1)[0]
        except (ValueError, AssertionError, IndexError):
            continue


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    keys = ["inputs", "long", "long_current", "big_block", "huffman_4",
            "x2_ratio"]
    print("| corpus | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    for d in a.dirs:
        n = shapes(inputs(d))
        print("| %s | %s |" % (d, " | ".join(str(n[k]) for k in keys)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
