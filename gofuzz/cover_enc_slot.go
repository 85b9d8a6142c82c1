//go:build gofuzz_bridge_slot || !gofuzz_bridge_calls

package gofuzz

// bucketInCalls selects how FlushCoverage hands a C counter's hit-count
// bucket to Go's fuzzer (see bridgeEncode). This file is the default: the
// bucket is carried in the slot number. Build with -tags gofuzz_bridge_calls
// to carry it in the number of calls instead (cover_enc_calls.go).
const bucketInCalls = false
