package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

// fullClaims reads the verdicts of a paper's full-size claims.csv as the
// full golden test pins it (reproduce all with no trace folder).
func fullClaims(t *testing.T, paper string) []repro.Check {
	t.Helper()
	f, err := os.Open(filepath.Join("../../../internal/golden/testdata/full", paper, "claims.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "verdict")
	if col < 0 {
		t.Fatalf("%s: claims.csv has no verdict column: %q", paper, rows[0])
	}
	var out []repro.Check
	for _, r := range rows[1:] {
		if !repro.ValidVerdict(r[col]) {
			t.Fatalf("%s: verdict %q", paper, r[col])
		}
		out = append(out, repro.Check{ID: r[0], V: repro.Verdict(r[col])})
	}
	return out
}

// The README's table of verdicts per paper and the line at the top of
// each docs/papers page say what the full reproductions' claims.csv
// say, category by category.
func TestReadmeClaimCounts(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	head := "  | paper |"
	var cols []string
	for _, v := range repro.Verdicts() {
		cols = append(cols, string(v))
	}
	header := head + " " + strings.Join(cols, " | ") + " |"
	if !strings.Contains(string(readme), header) {
		t.Fatalf("README lacks the verdict table header %q", header)
	}
	for _, paper := range []string{"zikos2008", "dimitriadou2010", "klusacek2008", "hafshejani2012", "alnajjar2019"} {
		cs := fullClaims(t, paper)
		tally := repro.Tally(cs)
		row := "  | [`" + paper + "`](docs/papers/" + paper + ".md) |"
		for _, v := range repro.Verdicts() {
			row += " " + strconv.Itoa(tally[v]) + " |"
		}
		if !strings.Contains(string(readme), row+"\n") {
			t.Errorf("README lacks the row %q", row)
		}
		page, err := os.ReadFile("../../../docs/papers/" + paper + ".md")
		if err != nil {
			t.Fatal(err)
		}
		line := "**Verdicts under the default reading, full size:** " + repro.TallyText(cs) + " (claims.csv;"
		if !strings.Contains(string(page), line) {
			t.Errorf("docs/papers/%s.md lacks %q", paper, line)
		}
	}
}
