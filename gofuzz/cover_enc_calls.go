//go:build gofuzz_bridge_calls && !gofuzz_bridge_slot

package gofuzz

// bucketInCalls selects how FlushCoverage hands a C counter's hit-count
// bucket to Go's fuzzer (see bridgeEncode). Built with -tags
// gofuzz_bridge_calls: the bucket is carried in the number of calls of one
// slot per C counter.
const bucketInCalls = true
