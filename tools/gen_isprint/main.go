// Command gen_isprint prints csrc/core/isprint_table.c: for every Go release
// cgofuzz follows (go1.18 ... go1.27), the set of runes for which that
// release's strconv.IsPrint reports true. It asks each release's strconv
// itself about every rune, so the C tables match the real toolchains.
//
// The releases' sets differ only by their Unicode version (13 up to 1.20,
// 15 for 1.21-1.26, 17 for 1.27), so the output is compact: the newest
// release's set as sorted inclusive ranges, plus, for each other distinct
// set, the ranges where it differs from the newest (the symmetric
// difference), and a table naming each release's difference.
//
// Usage (fetches toolchains that are missing through GOTOOLCHAIN):
//
//	go run ./tools/gen_isprint > csrc/core/isprint_table.c
//	go run ./tools/gen_isprint -toolchains go1.18.10,go1.27.4 > ...
//
// With -spans it prints the running Go's own set ("unicode V" then one
// "lo hi" line per range, in hex); the default mode runs itself that way
// under each toolchain, in a temporary module that says go 1.18.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"unicode"
)

type span struct{ lo, hi rune }

var defaultToolchains = "go1.18.10,go1.19.13,go1.20.14,go1.21.13,go1.22.12," +
	"go1.23.12,go1.24.13,go1.25.14,go1.26.11,go1.27.4"

func main() {
	spansMode := flag.Bool("spans", false, "print the running Go's IsPrint ranges")
	toolchains := flag.String("toolchains", defaultToolchains, "comma-separated releases, oldest first")
	flag.Parse()
	if *spansMode {
		w := bufio.NewWriter(os.Stdout)
		fmt.Fprintf(w, "unicode %s\n", unicode.Version)
		for _, s := range ownSpans() {
			fmt.Fprintf(w, "%x %x\n", s.lo, s.hi)
		}
		w.Flush()
		return
	}
	if err := generate(strings.Split(*toolchains, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "gen_isprint:", err)
		os.Exit(1)
	}
}

func ownSpans() []span {
	var spans []span
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !strconv.IsPrint(r) {
			continue
		}
		if n := len(spans); n > 0 && spans[n-1].hi == r-1 {
			spans[n-1].hi = r
		} else {
			spans = append(spans, span{r, r})
		}
	}
	return spans
}

type release struct {
	version string // go1.N.P
	minor   int
	unicode string
	spans   []span
}

var minorRE = regexp.MustCompile(`^go1\.(\d+)`)

// runUnder runs this program with -spans under toolchain v.
func runUnder(v string) (release, error) {
	rel := release{version: v}
	m := minorRE.FindStringSubmatch(v)
	if m == nil {
		return rel, fmt.Errorf("bad toolchain name %q", v)
	}
	rel.minor, _ = strconv.Atoi(m[1])
	_, self, _, _ := runtime.Caller(0)
	src, err := os.ReadFile(self)
	if err != nil {
		return rel, err
	}
	dir, err := os.MkdirTemp("", "gen_isprint-")
	if err != nil {
		return rel, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		return rel, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module gen\n\ngo 1.18\n"), 0o644); err != nil {
		return rel, err
	}
	cmd := exec.Command("go", "run", ".", "-spans")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN="+v, "GOWORK=off",
		// go1.19's module index fails on a GOROOT in the module cache
		// ("import \"\": import of unknown directory"); goindex=0 turns it off.
		"GODEBUG=goindex=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return rel, fmt.Errorf("%s: %v\n%s", v, err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	rel.unicode = strings.TrimPrefix(lines[0], "unicode ")
	for _, ln := range lines[1:] {
		var s span
		if _, err := fmt.Sscanf(ln, "%x %x", &s.lo, &s.hi); err != nil {
			return rel, fmt.Errorf("%s: bad line %q", v, ln)
		}
		rel.spans = append(rel.spans, s)
	}
	return rel, nil
}

// set expands spans into a membership bitmap over all runes.
func set(spans []span) []bool {
	b := make([]bool, unicode.MaxRune+1)
	for _, s := range spans {
		for r := s.lo; r <= s.hi; r++ {
			b[r] = true
		}
	}
	return b
}

// xorSpans returns the ranges where a and b differ.
func xorSpans(a, b []bool) []span {
	var spans []span
	for r := range a {
		if a[r] == b[r] {
			continue
		}
		if n := len(spans); n > 0 && spans[n-1].hi == rune(r)-1 {
			spans[n-1].hi = rune(r)
		} else {
			spans = append(spans, span{rune(r), rune(r)})
		}
	}
	return spans
}

func generate(versions []string) error {
	var rels []release
	for _, v := range versions {
		r, err := runUnder(v)
		if err != nil {
			return err
		}
		rels = append(rels, r)
	}
	newest := rels[len(rels)-1]
	base := set(newest.spans)
	lo, hi := rels[0].minor, newest.minor
	// Group releases by their difference from the newest.
	type group struct {
		releases []string
		unicode  string
		delta    []span
		off      int
	}
	var groups []*group
	byMinor := make(map[int]int)
	off := 0
	for _, r := range rels {
		d := xorSpans(set(r.spans), base)
		found := -1
		for i, g := range groups {
			if fmt.Sprint(g.delta) == fmt.Sprint(d) {
				found = i
			}
		}
		if found < 0 {
			groups = append(groups, &group{unicode: r.unicode, delta: d, off: off})
			off += len(d)
			found = len(groups) - 1
		}
		groups[found].releases = append(groups[found].releases, r.version)
		byMinor[r.minor] = found
	}
	for m := lo; m <= hi; m++ {
		if _, ok := byMinor[m]; !ok {
			return fmt.Errorf("no toolchain given for go1.%d", m)
		}
	}

	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "/*\n * isprint_table.c: GENERATED by tools/gen_isprint; do not edit.\n *\n")
	fmt.Fprintf(w, " * The runes strconv.IsPrint accepts in each Go release, asked of the real\n")
	fmt.Fprintf(w, " * toolchains named under Groups below.\n")
	fmt.Fprintf(w, " * cgofuzz_isprint_ranges is the newest release's set (%s,\n", newest.version)
	fmt.Fprintf(w, " * Unicode %s) as %d sorted, disjoint, inclusive ranges. An older\n", newest.unicode, len(newest.spans))
	fmt.Fprintf(w, " * release's set differs from it exactly on its ranges of\n")
	fmt.Fprintf(w, " * cgofuzz_isprint_delta (sorted, disjoint):\n")
	fmt.Fprintf(w, " * IsPrint(r) = in(newest, r) != in(delta, r). Groups:\n")
	for _, g := range groups {
		fmt.Fprintf(w, " *   Unicode %s, %d delta ranges:\n *     %s\n", g.unicode, len(g.delta), strings.Join(g.releases, " "))
	}
	fmt.Fprintf(w, " * quote.c searches these to decide what %%q may print verbatim.\n */\n")
	fmt.Fprintf(w, "#include \"isprint_table.h\"\n\n")
	fmt.Fprintf(w, "/* clang-format off */\nconst uint32_t cgofuzz_isprint_ranges[][2] = {\n")
	for _, s := range newest.spans {
		fmt.Fprintf(w, "    {0x%x, 0x%x},\n", s.lo, s.hi)
	}
	fmt.Fprintf(w, "};\n\nconst size_t cgofuzz_isprint_nranges =\n    sizeof cgofuzz_isprint_ranges / sizeof cgofuzz_isprint_ranges[0];\n\n")
	fmt.Fprintf(w, "const uint32_t cgofuzz_isprint_delta[][2] = {\n")
	if off == 0 {
		fmt.Fprintf(w, "    {0, 0}, /* unused: no release differs */\n")
	}
	for _, g := range groups {
		if len(g.delta) > 0 {
			fmt.Fprintf(w, "    /* Unicode %s:\n       %s */\n", g.unicode, strings.Join(g.releases, " "))
		}
		for _, s := range g.delta {
			fmt.Fprintf(w, "    {0x%x, 0x%x},\n", s.lo, s.hi)
		}
	}
	fmt.Fprintf(w, "};\n\n")
	fmt.Fprintf(w, "const int cgofuzz_isprint_minor_lo = %d, cgofuzz_isprint_minor_hi = %d;\n\n", lo, hi)
	fmt.Fprintf(w, "/* Per minor release lo..hi: its delta ranges [off, off + n) and Unicode. */\n")
	fmt.Fprintf(w, "const cgofuzz_isprint_release cgofuzz_isprint_releases[] = {\n")
	for m := lo; m <= hi; m++ {
		g := groups[byMinor[m]]
		fmt.Fprintf(w, "    {%d, %d, %q}, /* go1.%d */\n", g.off, len(g.delta), g.unicode, m)
	}
	fmt.Fprintf(w, "};\n/* clang-format on */\n")
	return nil
}
