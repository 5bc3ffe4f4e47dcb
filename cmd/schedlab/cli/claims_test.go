package cli

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/report/htmlreport"
	"github.com/schedlab/schedlab/repro"
)

// The HTML report accepts exactly the verdicts the reproductions write.
func TestClaimVerdictsAgree(t *testing.T) {
	var want []string
	for _, v := range repro.Verdicts() {
		want = append(want, string(v))
	}
	if !slices.Equal(htmlreport.ClaimVerdicts, want) {
		t.Errorf("htmlreport.ClaimVerdicts %q, repro.Verdicts %q", htmlreport.ClaimVerdicts, want)
	}
}
