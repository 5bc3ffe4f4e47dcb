package validate

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// The jobs.csv columns ReadJobsCSV needs; other columns are ignored.
const (
	colID     = "job_id"
	colSubmit = "submission_time"
	colStart  = "starting_time"
	colFinish = "finish_time"
	colProcs  = "requested_number_of_resources"
	colState  = "final_state"
	colAlloc  = "allocated_resources" // optional
)

var csvColumns = []string{colID, colSubmit, colStart, colFinish, colProcs, colState}

// ReadJobsCSV reads a schedule from a jobs.csv file: a header row, then one
// row per job. Columns are located by name, in any order; extra columns are
// ignored. The allocated_resources column is optional: when the header has
// it, every row's cell must be a CPU list in the normal form of the
// interval syntax (see ParseResources; the cell is not trimmed) and fills
// Rec.CPUs; without it Rec.CPUs is nil. name is used in error messages,
// which have the form "name:line: column col: problem".
func ReadJobsCSV(r io.Reader, name string) ([]Rec, error) {
	cr := csv.NewReader(r)
	at, err := readHeader(cr, name, csvColumns)
	if err != nil {
		return nil, err
	}

	var recs []Rec
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		// cellErr names the file, the line of the cell and its column.
		cellErr := func(col, what string) error {
			line, _ := cr.FieldPos(at[col])
			return fmt.Errorf("%s:%d: column %s: %s %q", name, line, col, what, row[at[col]])
		}
		cell := func(col string) string { return strings.TrimSpace(row[at[col]]) }
		num := func(col string, dst *float64) error {
			v, err := strconv.ParseFloat(cell(col), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return cellErr(col, "invalid number")
			}
			*dst = v
			return nil
		}

		var rec Rec
		id, err := strconv.ParseInt(cell(colID), 10, 64)
		if err != nil {
			return nil, cellErr(colID, "invalid integer")
		}
		rec.ID = id
		for _, f := range []struct {
			col string
			dst *float64
		}{{colSubmit, &rec.Submit}, {colStart, &rec.Start}, {colFinish, &rec.Finish}} {
			if err := num(f.col, f.dst); err != nil {
				return nil, err
			}
		}
		procs, err := strconv.Atoi(cell(colProcs))
		if err != nil {
			return nil, cellErr(colProcs, "invalid integer")
		}
		rec.Procs = procs
		rec.State = cell(colState)
		if c, ok := at[colAlloc]; ok {
			cpus, err := ParseResources(row[c])
			if err != nil {
				line, _ := cr.FieldPos(c)
				return nil, fmt.Errorf("%s:%d: column %s: %s: %v", name, line, colAlloc, quote(row[c]), err)
			}
			rec.CPUs = cpus
		}
		recs = append(recs, rec)
	}
}

// csvError names the file and line of an encoding/csv error.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %w", name, pe.Line, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// readHeader reads a CSV file's header row and returns each column's
// index by name (names trimmed, a byte order mark dropped), refusing an
// empty file, a column named twice and a missing column of want, each
// error naming the file (and line 1).
func readHeader(cr *csv.Reader, name string, want []string) (map[string]int, error) {
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file, want a header row", name)
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	at := make(map[string]int, len(header))
	for i, h := range header {
		h = strings.TrimSpace(h)
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff") // byte order mark
		}
		if _, dup := at[h]; dup {
			return nil, fmt.Errorf("%s:1: column %s appears twice", name, h)
		}
		at[h] = i
	}
	for _, c := range want {
		if _, ok := at[c]; !ok {
			return nil, fmt.Errorf("%s:1: missing column %s", name, c)
		}
	}
	return at, nil
}
