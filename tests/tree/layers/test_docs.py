"""The docs are a map of the tree, and the map matches it.

- Every file and directory path named in docs/architecture.md and in the
  README's "Layout" section exists; every layer of csrc/layers.txt is named
  in docs/architecture.md (its folder and its CMake library, as
  CMakeLists.txt names it), in the README's layout and in its design notes;
  every CMake target docs/architecture.md names is one CMakeLists.txt
  defines; every file under csrc/ is named in docs/architecture.md.
- Every doc of docs/ is linked from docs/README.md.
- Every relative markdown link of README.md and docs/*.md resolves (to a
  file or directory, and to a heading when it names one).

Each check returns its problems as lines; the planted cases at the end show
that each one fails, naming what is wrong.
"""
import fnmatch
import os
import re

import pytest

SOURCE_EXT = (".c", ".h", ".cc", ".go", ".py", ".sh", ".txt", ".md", ".ini",
              ".svg", ".j2")


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def layers(root):
    """The layers of csrc/layers.txt, lowest first."""
    out = []
    for line in read(root, "csrc/layers.txt").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line.split()[0])
    return out


def strip_code_blocks(text):
    """The text without its fenced code blocks (their lines left empty, so
    line numbers stay)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return "\n".join(out)


def section(text, title):
    """The lines of the `## title` section of a markdown text."""
    m = re.search(r"^## %s\s*$" % re.escape(title), text, re.M)
    assert m, "no section '## %s'" % title
    rest = text[m.end():]
    n = re.search(r"^## ", rest, re.M)
    return rest[:n.start()] if n else rest


def tree_files(root):
    """Every file of the tree, relative to root (no .git, no build trees)."""
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs
                   if x != ".git" and not x.startswith("build")
                   and x not in (".cache", "__pycache__")]
        for f in files:
            out.append(os.path.relpath(os.path.join(d, f), root))
    return out


def _exists(root, path):
    if any(c in path for c in "*?["):
        return any(fnmatch.fnmatch(f, path.rstrip("/"))
                   for f in tree_files(root))
    return os.path.exists(os.path.join(root, path))


def path_problems(root, where, text):
    """Backticked paths of `text` that do not exist. A token with a slash
    whose first part is a top-level entry of the tree or a layer is a path
    from the root, from csrc/, or from the directory the same line names
    first (`examples/` then `go/`); other slashed tokens (Go packages such
    as `encoding/json`) are not the tree's. A bare file name with a source
    extension must be some file's name in the tree. Tokens with <, {,
    spaces or :: are templates or test ids, not paths."""
    problems = []
    names = None
    top = set(os.listdir(root)) | set(layers(root))
    for n, line in enumerate(strip_code_blocks(text).split("\n"), 1):
        tokens = re.findall(r"`([^`]+)`", line)
        base = None
        for tok in tokens:
            if any(c in tok for c in "<>{} \"'=$") or "::" in tok:
                continue
            if tok.startswith("-") or tok.startswith("#"):
                continue
            if "/" in tok:
                if tok.startswith(("http:", "https:", "/")):
                    continue
                if _exists(root, tok):
                    if base is None and os.path.isdir(
                            os.path.join(root, tok)):
                        base = tok
                    continue
                if base and _exists(root, os.path.join(base, tok)):
                    continue
                if _exists(root, os.path.join("csrc", tok)):
                    continue
                if tok.split("/", 1)[0] not in top and not base:
                    continue
                problems.append("%s:%d: `%s` does not exist" %
                                (where, n, tok))
            elif tok.endswith(SOURCE_EXT) and re.match(r"^[\w.*-]+$", tok):
                if names is None:
                    names = [os.path.basename(f) for f in tree_files(root)]
                if not any(fnmatch.fnmatch(b, tok) for b in names):
                    problems.append("%s:%d: no file is named `%s`" %
                                    (where, n, tok))
    return problems


def architecture_problems(root, arch, readme, cmake):
    """The layers, CMake names and files docs/architecture.md and the
    README must name."""
    problems = []
    ls = layers(root)
    arch_code = strip_code_blocks(arch)
    layout = section(readme, "Layout")
    design = section(readme, "Design notes")
    for layer in ls:
        if "`csrc/%s/`" % layer not in arch_code:
            problems.append("docs/architecture.md: layer %s: no `csrc/%s/`" %
                            (layer, layer))
        if "`layer_%s`" % layer not in arch_code:
            problems.append("docs/architecture.md: layer %s: no CMake "
                            "library `layer_%s`" % (layer, layer))
        if "`csrc/%s/`" % layer not in layout:
            problems.append("README.md Layout: layer %s: no `csrc/%s/`" %
                            (layer, layer))
        if not re.search(r"\b%s\b" % re.escape(layer), design):
            problems.append("README.md Design notes: layer %s not named" %
                            layer)
    # Layers the docs name must be layers.
    for where, text in (("docs/architecture.md", arch_code),
                        ("README.md Layout", layout)):
        for name in re.findall(r"`csrc/([a-z]+)/`", text):
            if name not in ls:
                problems.append("%s: csrc/%s/ is not a layer of "
                                "csrc/layers.txt" % (where, name))
    for name in set(re.findall(r"`layer_([a-z]+)`", arch_code)):
        if name not in ls:
            problems.append("docs/architecture.md: layer_%s: no such layer" %
                            name)
    # The CMake names: layer_<name> is how CMakeLists.txt builds each layer,
    # and every target of the table is one it defines.
    if "add_library(layer_${layer}" not in cmake:
        problems.append("CMakeLists.txt no longer builds layer_<layer>: "
                        "fix docs/architecture.md and csrc/layers.txt")
    defined = set(re.findall(r"add_(?:library|executable)\((\w+)", cmake))
    m = re.search(r"^\| CMake target \|.*?\n((?:\|.*\n)+)", arch_code, re.M)
    if not m:
        problems.append("docs/architecture.md: no table of CMake targets")
    else:
        for row in m.group(1).splitlines()[1:]:
            t = re.match(r"\|\s*`(\w+)`", row)
            if t and t.group(1) not in defined:
                problems.append("docs/architecture.md: CMake target `%s` is "
                                "not in CMakeLists.txt" % t.group(1))
    # Every file of csrc/ has its line.
    for f in sorted(tree_files(root)):
        if f.startswith("csrc" + os.sep) and "`%s`" % f not in arch_code:
            problems.append("docs/architecture.md does not name `%s`" % f)
    return problems


def doc_names(root):
    return sorted(f for f in os.listdir(os.path.join(root, "docs"))
                  if f.endswith(".md"))


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
REF = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.M)


def links(text):
    """(line, target) of every markdown link outside code."""
    out = []
    for n, line in enumerate(strip_code_blocks(text).split("\n"), 1):
        line = re.sub(r"`[^`]*`", "", line)
        for m in LINK.finditer(line):
            out.append((n, m.group(1)))
        for m in REF.finditer(line):
            out.append((n, m.group(1)))
    return out


def slug(heading):
    """GitHub's anchor of a heading."""
    h = heading.strip().lower().replace("`", "")
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


def anchors(text):
    return {slug(m.group(1))
            for m in re.finditer(r"^#+\s+(.*)$", strip_code_blocks(text),
                                 re.M)}


def link_problems(root, rel, text):
    """Relative links of the markdown file rel (given as text) that do not
    resolve."""
    problems = []
    d = os.path.dirname(rel)
    for n, target in links(text):
        if re.match(r"^[a-z]+:", target):
            continue  # http:, https:, mailto:
        path, _, anchor = target.partition("#")
        if path:
            full = os.path.normpath(os.path.join(root, d, path))
            if not os.path.exists(full):
                problems.append("%s:%d: link to %s: no such file" %
                                (rel, n, target))
                continue
        else:
            full = os.path.join(root, rel)
        if anchor and full.endswith(".md"):
            body = text if not path else read(root,
                                              os.path.relpath(full, root))
            if anchor not in anchors(body):
                problems.append("%s:%d: link to %s: no such heading" %
                                (rel, n, target))
    return problems


def index_problems(root, index_text):
    """docs/*.md not linked from docs/README.md."""
    linked = {os.path.normpath(t.partition("#")[0])
              for _, t in links(index_text)}
    return ["docs/README.md does not link docs/%s" % name
            for name in doc_names(root)
            if name != "README.md" and name not in linked]


# -- the real tree ------------------------------------------------------------

def test_paths_named_in_the_map_exist(source_dir):
    arch = read(source_dir, "docs/architecture.md")
    layout = section(read(source_dir, "README.md"), "Layout")
    problems = (path_problems(source_dir, "docs/architecture.md", arch) +
                path_problems(source_dir, "README.md Layout", layout))
    assert not problems, "\n".join(problems)


def test_every_layer_file_and_cmake_name_is_in_the_map(source_dir):
    problems = architecture_problems(
        source_dir, read(source_dir, "docs/architecture.md"),
        read(source_dir, "README.md"), read(source_dir, "CMakeLists.txt"))
    assert not problems, "\n".join(problems)


def test_every_doc_is_in_the_index(source_dir):
    problems = index_problems(source_dir, read(source_dir, "docs/README.md"))
    assert not problems, "\n".join(problems)


def test_relative_links_resolve(source_dir):
    problems = []
    for rel in ["README.md"] + ["docs/" + n for n in doc_names(source_dir)]:
        problems += link_problems(source_dir, rel, read(source_dir, rel))
    assert not problems, "\n".join(problems)


# -- planted faults: each check fails, naming it ------------------------------

def test_a_broken_link_fails(source_dir):
    text = read(source_dir, "README.md") + "\nSee [gone](docs/gone.md).\n"
    problems = link_problems(source_dir, "README.md", text)
    assert any("docs/gone.md: no such file" in p for p in problems), problems


def test_a_link_to_a_missing_heading_fails(source_dir):
    text = read(source_dir, "docs/README.md") + \
        "\n[x](status.md#no-such-heading)\n"
    problems = link_problems(source_dir, "docs/README.md", text)
    assert any("no such heading" in p for p in problems), problems


def test_a_doc_missing_from_the_index_fails(source_dir):
    text = read(source_dir, "docs/README.md")
    text = re.sub(r"^.*\(status\.md\).*$", "", text, flags=re.M)
    assert index_problems(source_dir, text) == [
        "docs/README.md does not link docs/status.md"]


@pytest.mark.parametrize("planted,expected", [
    ("- `csrc/coord/coord_gone.c`: nothing.\n",
     "`csrc/coord/coord_gone.c` does not exist"),
    ("- `coord_gone.c`: nothing.\n", "no file is named `coord_gone.c`"),
])
def test_a_missing_path_fails(source_dir, planted, expected):
    text = read(source_dir, "docs/architecture.md") + planted
    problems = path_problems(source_dir, "docs/architecture.md", text)
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize("old,new,expected", [
    ("`csrc/lf/`", "`csrc/lf`", "layer lf: no `csrc/lf/`"),
    ("`layer_lf`", "`cgofuzz_lf`", "no CMake library `layer_lf`"),
    ("`csrc/lf/lf_jobs.c`", "`csrc/lf/lf_jobz.c`",
     "does not name `csrc/lf/lf_jobs.c`"),
    ("| `cgofuzz_main` |", "| `cgofuzz_mains` |",
     "CMake target `cgofuzz_mains` is not in CMakeLists.txt"),
])
def test_a_layer_or_file_missing_from_the_map_fails(source_dir, old, new,
                                                    expected):
    arch = read(source_dir, "docs/architecture.md")
    assert old in arch
    problems = architecture_problems(
        source_dir, arch.replace(old, new), read(source_dir, "README.md"),
        read(source_dir, "CMakeLists.txt"))
    assert any(expected in p for p in problems), problems


def test_a_layer_missing_from_the_readme_fails(source_dir):
    readme = read(source_dir, "README.md")
    layout = section(readme, "Layout")
    row = [line for line in layout.splitlines() if "`csrc/lf/`" in line]
    assert row
    problems = architecture_problems(
        source_dir, read(source_dir, "docs/architecture.md"),
        readme.replace(row[0] + "\n", ""), read(source_dir, "CMakeLists.txt"))
    assert "README.md Layout: layer lf: no `csrc/lf/`" in problems, problems
