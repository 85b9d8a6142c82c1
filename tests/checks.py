"""checks.py: what the Python test scripts share (import it after putting
tests/ on sys.path): named checks that record failures, and the closing
"N failure(s)" line with the exit status."""
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
