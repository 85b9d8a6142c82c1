package cgopkg

import "testing"

func FuzzMagic(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if Magic(b) {
			t.Fatalf("magic %q", b)
		}
	})
}

func FuzzGate(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if Gate(b) {
			t.Fatalf("gate opened by %q", b)
		}
	})
}

func FuzzRecord(f *testing.F) {
	f.Add([]byte("RC\x02ab"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ParseRecord(b)
	})
}

func FuzzSum(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		SumRecord(b)
	})
}

// FuzzSumAppend appends to its input, as Go code may, and sums the input
// with the byte after it in bounds: never a report.
func FuzzSumAppend(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		b = append(b, 0)
		SumRecord(b[:len(b)-1])
	})
}

func FuzzTag(f *testing.F) {
	f.Add([]byte("TA"))
	f.Fuzz(func(t *testing.T, b []byte) {
		CountTag(b)
	})
}

func FuzzName(f *testing.F) {
	f.Add([]byte("NM"))
	f.Fuzz(func(t *testing.T, b []byte) {
		CopyName(b)
	})
}

func FuzzRecords(f *testing.F) {
	f.Add([]byte("TA"))
	f.Add([]byte("ASx"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Records(b)
	})
}

func FuzzCxx(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if CxxMagic(b) {
			t.Fatalf("C++ magic %q", b)
		}
	})
}

func TestSeeds(t *testing.T) {
	if Magic([]byte("hello")) || Gate([]byte("hello")) || CxxMagic([]byte("hi")) {
		t.Fatal("a seed opens a gate")
	}
	if ParseRecord([]byte("RC\x02ab")) != 'a' {
		t.Fatal("ParseRecord")
	}
	if CxxPairs([]byte("abab")) != 2 {
		t.Fatal("CxxPairs")
	}
}

func FuzzFrame(f *testing.F) {
	f.Add([]byte("F\x10ok"))
	f.Fuzz(func(t *testing.T, b []byte) {
		DecodeFrame(b)
	})
}
