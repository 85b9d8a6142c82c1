"""outfile.py: how the report tools (cover.py, plot.py) write an output
file: through a temporary of their own in its directory, then a rename, so
that a reader never sees half a file and a planted name or symlink is never
written through. Standard library only.
"""
import os
import tempfile


def write_replacing(out, write, mode="w"):
    """Writes out through write(file): a temporary made by mkstemp in out's
    directory (never a guessable name, never following a symlink someone
    planted there), mode 0666 less the umask, then os.replace, which
    replaces a symlink at out rather than writing through it."""
    d = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(dir=d, prefix="." + os.path.basename(out) + ".",
                               suffix=".tmp")
    try:
        mask = os.umask(0)  # the only way to read it; a single thread here
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, mode, **({} if "b" in mode
                                     else {"encoding": "utf-8"})) as f:
            fd = -1
            write(f)
        os.replace(tmp, out)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
