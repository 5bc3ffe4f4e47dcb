package plot

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"
)

// WriteCSV writes the figure's data in long format: the header
// "series,x,y,ci_low,ci_high", then one row per point, series by series in
// order. Numbers are strconv.FormatFloat(v, 'g', -1, 64); the two
// confidence cells are empty when the series has no bounds or the point's
// bounds are NaN. For bar charts x is the category index into XTicks.
// Cells containing commas or quotes are quoted as RFC 4180 says. Nothing is
// written if Validate fails.
func (f *Figure) WriteCSV(w io.Writer) error {
	if err := f.Validate(); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"series", "x", "y", "ci_low", "ci_high"}); err != nil {
		return err
	}
	row := make([]string, 5)
	for si := range f.Series {
		s := &f.Series[si]
		for i := range s.X {
			row[0] = s.Name
			row[1] = formatFloat(s.X[i])
			row[2] = formatFloat(s.Y[i])
			row[3], row[4] = "", ""
			if s.Low != nil {
				row[3], row[4] = formatFloat(s.Low[i]), formatFloat(s.High[i])
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// formatFloat formats v exactly, and NaN as the empty string.
func formatFloat(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
