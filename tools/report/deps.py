"""deps.py: the report tools' third-party imports, checked before use.

The tools (plot.py, cover.py) use Debian's python3-matplotlib, -jinja2 and
-pygments (scripts/install-deps.sh installs them). Those serve Debian's
/usr/bin/python3; when the python3 first on PATH (pyenv, a venv) lacks a
module, require() re-executes the tool with /usr/bin/python3, and when that
lacks it too, it exits 1 naming the command and the Debian package.
Standard library only.
"""
import importlib
import os
import sys

DEBIAN_PYTHON = "/usr/bin/python3"
_REEXEC_ENV = "CGOFUZZ_REPORT_REEXEC"

PACKAGES = {
    "matplotlib": "python3-matplotlib",
    "jinja2": "python3-jinja2",
    "pygments": "python3-pygments",
}


def require(prog, modules):
    """Imports each module of `modules` or moves to Debian's python3.

    Returns normally only when every module imports."""
    missing = []
    for m in modules:
        try:
            importlib.import_module(m)
        except ImportError:
            missing.append(m)
    if not missing:
        return
    here = os.path.realpath(sys.executable or "")
    if (not os.environ.get(_REEXEC_ENV) and os.path.exists(DEBIAN_PYTHON)
            and os.path.realpath(DEBIAN_PYTHON) != here):
        os.environ[_REEXEC_ENV] = "1"
        os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON] + sys.argv)
    names = " ".join(missing)
    debs = " ".join(PACKAGES.get(m, "python3-" + m) for m in missing)
    sys.stderr.write("%s needs python3 with %s (Debian: %s)\n"
                     % (prog, names, debs))
    sys.exit(1)
