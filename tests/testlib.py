"""testlib.py: helpers the Python suites share (tests/conftest.py puts
tests/ on sys.path): reading the []byte values of corpus files Go (or
cgofuzz) wrote, and fresh directories.

check()/finish() are the old named-check style of the suites that are not
pytest modules yet; pytest suites use plain asserts."""
import os
import shutil

failures = []


def check(name, cond, detail=""):
    """Prints "ok   name" or "FAIL name" (and the detail, indented)."""
    print(("ok   " if cond else "FAIL ") + name, flush=True)
    if not cond:
        failures.append(name)
        if detail:
            print("     " + str(detail).replace("\n", "\n     "), flush=True)
    return bool(cond)


def finish():
    """Prints the summary line; returns the exit status (1 on a failure)."""
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


def fresh(path):
    """An empty directory at path (removed first if it exists)."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def go_unquote(s):
    """Decodes Go's strconv.Quote output (as %q writes []byte values):
    \\xNN is a byte, \\u/\\U and raw non-ASCII characters are UTF-8."""
    assert s[0] == '"' and s[-1] == '"', s[:20]
    s = s[1:-1]
    out = bytearray()
    i = 0
    simple = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11,
              "\\": 92, '"': 34, "'": 39}
    while i < len(s):
        c = s[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        e = s[i + 1]
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e == "x":
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        elif e == "u":
            out += chr(int(s[i + 2:i + 6], 16)).encode("utf-8")
            i += 6
        elif e == "U":
            out += chr(int(s[i + 2:i + 10], 16)).encode("utf-8")
            i += 10
        elif e in "01234567":
            out.append(int(s[i + 1:i + 4], 8))
            i += 4
        else:
            raise ValueError("bad escape \\" + e)
    return bytes(out)


def go_bytes(text):
    """The value of a corpus file holding one []byte ("go test fuzz v1\n
    []byte(\"...\")\n"), as bytes."""
    line = text.split("\n")[1]
    assert line.startswith("[]byte(") and line.endswith(")"), line
    return go_unquote(line[7:-1])
