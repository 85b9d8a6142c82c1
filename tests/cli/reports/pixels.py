"""pixels.py PNG RRGGBB... : counts a screenshot's pixels near each colour.

Run by test_reports.py with a python3 that has Pillow (Debian's
python3-pil, which python3-matplotlib brings); prints one JSON object
{"RRGGBB": count, ..., "size": [w, h]}. A pixel counts when each channel is
within 6 of the colour (antialiasing and colour management leave flat
backgrounds exact, but line edges vary).
"""
import json
import sys

from PIL import Image


def main(argv):
    img = Image.open(argv[0]).convert("RGB")
    want = [(c, tuple(int(c[i:i + 2], 16) for i in (0, 2, 4)))
            for c in argv[1:]]
    counts = {c: 0 for c, _ in want}
    for (r, g, b), n in ((px, n) for n, px in img.getcolors(1 << 24)):
        for c, (wr, wg, wb) in want:
            if abs(r - wr) <= 6 and abs(g - wg) <= 6 and abs(b - wb) <= 6:
                counts[c] += n
    counts["size"] = list(img.size)
    print(json.dumps(counts))


if __name__ == "__main__":
    main(sys.argv[1:])
