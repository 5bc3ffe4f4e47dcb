package lublin

import (
	"io"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
)

// BenchmarkGenerate is the time to generate one job (batch set, 128
// processors, daily cycle on): a million jobs take 1e6 × ns/op.
//
//	go test ./workload/lublin -run '^$' -bench Generate -benchtime 1000000x
func BenchmarkGenerate(b *testing.B) {
	p := Default(128)
	p.Jobs = max(b.N, 1)
	s, err := New(p, 1, 0)
	if err != nil {
		b.Fatal(err)
	}
	var j actual.Job
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.NextInto(&j); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerateSWF is the time to generate one job and write it as
// an SWF line (to io.Discard): what `trace synth` does, without gzip.
func BenchmarkGenerateSWF(b *testing.B) {
	p := Default(128)
	p.Jobs = max(b.N, 1)
	b.ReportAllocs()
	b.ResetTimer()
	if err := WriteSWF(io.Discard, p, 1, 0); err != nil {
		b.Fatal(err)
	}
}
