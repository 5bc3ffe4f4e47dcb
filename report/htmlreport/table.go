package htmlreport

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// MaxTableRows bounds the rows of the small CSV files of sweeps and
// reproductions (summary.csv, comparisons.csv, comparison.csv,
// claims.csv).
const MaxTableRows = 1_000_000

// table is a CSV file read by column name.
type table struct {
	path string
	at   map[string]int
	rows [][]string
	line []int // line of each row
}

// readTable reads a CSV file with a header row naming at least the
// columns want.
func readTable(path string, want ...string) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := csv.NewReader(f)
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file, want a header row", path)
	}
	if err != nil {
		return nil, csvErr(path, err)
	}
	t := &table{path: path, at: map[string]int{}}
	for i, h := range header {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		if _, dup := t.at[h]; dup {
			return nil, fmt.Errorf("%s:1: column %s appears twice", path, h)
		}
		t.at[h] = i
	}
	for _, c := range want {
		if _, ok := t.at[c]; !ok {
			return nil, fmt.Errorf("%s:1: missing column %s", path, c)
		}
	}
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, csvErr(path, err)
		}
		if len(t.rows) >= MaxTableRows {
			return nil, fmt.Errorf("%s: more than %d rows (the report's limit)", path, MaxTableRows)
		}
		line, _ := cr.FieldPos(0)
		t.rows = append(t.rows, row)
		t.line = append(t.line, line)
	}
}

func (t *table) has(col string) bool { _, ok := t.at[col]; return ok }

// get returns row i's cell in col ("" when the file has no such column).
func (t *table) get(i int, col string) string {
	c, ok := t.at[col]
	if !ok {
		return ""
	}
	return t.rows[i][c]
}

// num parses row i's cell in col as a finite number; empty gives NaN
// when emptyOK.
func (t *table) num(i int, col string, emptyOK bool) (float64, error) {
	s := t.get(i, col)
	if s == "" && emptyOK {
		return math.NaN(), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s:%d: column %s: invalid number %q", t.path, t.line[i], col, cut(s))
	}
	return v, nil
}

// g formats a number for a table: 6 significant digits, "" for NaN.
func g(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}
