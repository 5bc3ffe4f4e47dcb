package workload

import (
	"compress/gzip"
	"fmt"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"io"
	"math"
	"strings"

	"github.com/schedlab/schedlab/workload/swf"
)

// Repeat writes the trace named name times times to path, each copy
// shifted in time to start where the previous one's submissions ended (plus
// gap seconds) and renumbered after it, so the result is a valid, sorted
// SWF trace: a way to make very long workloads from real ones (e.g. for
// memory tests). A path ending in .gz is gzip-compressed. The file appears
// only when complete. Records without a submit time are dropped.
func Repeat(name string, times int, gap float64, path string) (records int64, err error) {
	if times < 1 {
		return 0, fmt.Errorf("repeat: --times must be >= 1, got %d", times)
	}
	// First pass: span and highest job number.
	rd, err := OpenTrace(name)
	if err != nil {
		return 0, err
	}
	hdr := rd.Header()
	first, last := math.Inf(1), math.Inf(-1)
	var maxID int64
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			rd.Close()
			return 0, err
		}
		if rec.Submit >= 0 {
			first, last = math.Min(first, rec.Submit), math.Max(last, rec.Submit)
		}
		maxID = max(maxID, rec.JobNumber)
	}
	rd.Close()
	if math.IsInf(first, 1) {
		return 0, fmt.Errorf("repeat: trace %s has no job with a submit time", name)
	}
	shift := last - first + gap

	err = atomicfile.Write(path, func(file io.Writer) error {
		out := file
		var gz *gzip.Writer
		if strings.HasSuffix(path, ".gz") {
			gz, _ = gzip.NewWriterLevel(file, gzip.BestSpeed)
			out = gz
		}
		w := swf.NewWriter(out)
		hdr.Lines = append(append([]string(nil), hdr.Lines...), fmt.Sprintf(" Note: schedlab trace repeat: %s repeated %d times, shifted by %g s each", name, times, shift))
		hdr.MaxJobs, hdr.MaxRecords = 0, 0
		if err := w.WriteHeader(hdr); err != nil {
			return err
		}
		for k := 0; k < times; k++ {
			if err := repeatOnce(name, k, shift, maxID, w, &records); err != nil {
				return err
			}
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if gz != nil {
			return gz.Close()
		}
		return nil
	})
	return records, err
}

// repeatOnce writes copy k of the trace, shifted by k x shift seconds and
// renumbered after k x maxID.
func repeatOnce(name string, k int, shift float64, maxID int64, w *swf.Writer, records *int64) error {
	rd, err := OpenTrace(name)
	if err != nil {
		return err
	}
	defer rd.Close()
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if rec.Submit < 0 {
			continue
		}
		rec.Submit += float64(float64(k) * shift)
		rec.JobNumber += int64(k) * maxID
		if rec.PrecedingJob > 0 {
			rec.PrecedingJob += int64(k) * maxID
		}
		if err := w.Write(rec); err != nil {
			return err
		}
		*records++
	}
}
