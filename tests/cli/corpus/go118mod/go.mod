// The module tests/cli/corpus/test_go118.py builds (in a copy) to run
// go-118-fuzz-build's own byte consumer. These pinned versions are the
// ones scripts/install-deps.sh downloads into the module cache.
module example.com/go118check

go 1.18

require (
	github.com/AdaLogics/go-fuzz-headers v0.0.0-20230811130428-ced1acdcaa24
	github.com/AdamKorcz/go-118-fuzz-build v0.0.0-20250520111509-a70c2aa677fa
)
