"""harnesses.py: the libFuzzer-form harnesses of cgofuzz's own code and the
sources compiled (instrumented) into each, shared by tests/selffuzz/libfuzzer (built with
clang -fsanitize=fuzzer, run by libFuzzer) and tests/selffuzz/cgofuzz (built with
`cgofuzz cc`, run by cgofuzz itself).

The sources are found through the layer table csrc/layers.txt (one folder
of csrc/ per layer), as CMakeLists.txt does, so moving a file between
layers or adding one needs no change here: a harness compiles the files it
names in its own layer plus every source of the layers its decoders rest
on (core and base, see BELOW)."""
import glob
import os

# name -> (harness source, relative to the repository; its layer; the
# files of that layer it tests, None for all of them; "../L/F" is file F of
# layer L, one the harness's layer may use)
HARNESSES = {
    "corpus": ("tests/selffuzz/libfuzzer/fuzz_corpus.c", "core", None),
    "wire": ("tests/selffuzz/libfuzzer/fuzz_wire.c", "core", None),
    "flags": ("tests/selffuzz/cgofuzz/fuzz_flags.c", "base", None),
    "dict": ("tests/selffuzz/cgofuzz/fuzz_dict.c", "runtime", ["dict.c"]),
    "obj": ("tests/selffuzz/cgofuzz/fuzz_obj.c", "gobin",
            ["gobin_obj.c", "gobin_gover.c"]),
    "merge": ("tests/selffuzz/cgofuzz/fuzz_merge.c", "lf", ["lf_merge.c"]),
    "records": ("tests/selffuzz/cgofuzz/fuzz_records.c", "coord",
                ["coord_discover.c"]),
    "objdump": ("tests/selffuzz/cgofuzz/fuzz_objdump.c", "feedback",
                ["fb_tokens.c", "../gobin/gobin_godict.c",
                 "../gobin/gobin_obj.c", "../gobin/gobin_gover.c"]),
    # cli is in no library: golaunch.c's callees of cli come along.
    "launcher": ("tests/selffuzz/cgofuzz/fuzz_launcher.c", "cli",
                 ["golaunch.c", "gocover.c", "fileio.c"]),
    "go118": ("tests/selffuzz/cgofuzz/fuzz_go118.c", "cli", ["go118.c"]),
    "gocover": ("tests/selffuzz/cgofuzz/fuzz_gocover.c", "cli",
                ["gocover.c", "fileio.c"]),
    "elfrel": ("tests/selffuzz/cgofuzz/fuzz_elfrel.c", "base", None),
    "cmppatch": ("tests/selffuzz/cgofuzz/fuzz_cmppatch.c", "gobin",
                 ["gobin_patch.c", "gobin_obj.c", "gobin_counters.c"]),
}
# The layers compiled whole into every harness: the decoders and what they
# use (no coverage hooks, no main, no worker side).
BELOW = ["core", "base"]


def layers(source_dir):
    """{layer: [layers it may use]} from csrc/layers.txt."""
    table = {}
    with open(os.path.join(source_dir, "csrc", "layers.txt")) as f:
        for line in f:
            words = line.split()
            if words and not line.startswith("#"):
                table[words[0]] = words[1:]
    return table


def layer_dir(source_dir, layer):
    return os.path.join(source_dir, "csrc", layer)


def sources(source_dir, name):
    """The C sources compiled into harness name, harness first."""
    src, layer, files = HARNESSES[name]
    out = [os.path.join(source_dir, src)]
    if files is None:
        out += sorted(glob.glob(os.path.join(layer_dir(source_dir, layer),
                                             "*.c")))
    else:
        for f in files:
            path = os.path.join(layer_dir(source_dir, layer), f)
            if not os.path.isfile(path):
                raise FileNotFoundError(
                    "harness %s: %s is gone; update tests/selffuzz/libfuzzer/harnesses.py"
                    % (name, path))
            out.append(path)
    for below in BELOW:
        if below != layer:
            out += sorted(glob.glob(os.path.join(
                layer_dir(source_dir, below), "*.c")))
    return out


def below_sources(source_dir):
    """The sources of the BELOW layers, which every harness compiles (the
    same objects serve them all: they include only their own layers)."""
    out = []
    for below in BELOW:
        out += sorted(glob.glob(os.path.join(layer_dir(source_dir, below),
                                             "*.c")))
    return out


def cflags(source_dir, name):
    """Compiler flags of harness name: ASan+UBSan (no recovery), warnings
    as errors, and the include directories of its layer, the layers that
    layer may use, and include/."""
    layer = HARNESSES[name][1]
    dirs = [layer] + layers(source_dir).get(layer, [])
    return (["-std=c11", "-g", "-O1", "-D_GNU_SOURCE", "-Wall", "-Wextra",
             "-Werror", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer",
             "-I" + os.path.join(source_dir, "include")] +
            ["-I" + layer_dir(source_dir, d) for d in dirs])
