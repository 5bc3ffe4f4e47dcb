package workload

import (
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/workload/swf"
)

// Limits of Repeat (docs/limits.md).
const (
	MaxRepeatTimes   = 10_000
	MaxRepeatGap     = 1e9 // seconds, about 31 years
	MaxRepeatRecords = 100_000_000
	maxExact         = 1 << 53
)

// CheckRepeat checks the numbers given to Repeat: times in
// 1..MaxRepeatTimes, gap in [0, MaxRepeatGap] (a negative gap would make
// the copies overlap and the result unsorted).
func CheckRepeat(times int, gap float64) error {
	if times < 1 || times > MaxRepeatTimes {
		return fmt.Errorf("--times %d: want 1..%d", times, MaxRepeatTimes)
	}
	if !(gap >= 0 && gap <= MaxRepeatGap) {
		return fmt.Errorf("--gap %g: want 0..%g seconds", gap, float64(MaxRepeatGap))
	}
	return nil
}

// Repeat writes the trace named name times times to path, each copy
// shifted in time to start where the previous one's submissions ended (plus
// gap seconds) and renumbered after it, so the result is a valid, sorted
// SWF trace: a way to make very long workloads from real ones (e.g. for
// memory tests). A path ending in .gz is gzip-compressed. The file appears
// only when complete. Records without a submit time are dropped.
//
// times is at most MaxRepeatTimes, gap in [0, MaxRepeatGap], and the
// result at most MaxRepeatRecords records with submit times within
// swf.MaxSeconds and job numbers below 2^53; all are checked before
// anything is written.
func Repeat(name string, times int, gap float64, path string) (records int64, err error) {
	if err := CheckRepeat(times, gap); err != nil {
		return 0, err
	}
	// First pass: span and highest job number.
	rd, err := OpenTrace(name)
	if err != nil {
		return 0, err
	}
	hdr := rd.Header()
	first, last := math.Inf(1), math.Inf(-1)
	var maxID, n int64
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
		n++
	}
	rd.Close()
	if math.IsInf(first, 1) {
		return 0, fmt.Errorf("repeat: trace %s has no job with a submit time", name)
	}
	shift := last - first + gap
	switch {
	case n > MaxRepeatRecords/int64(times):
		return 0, fmt.Errorf("repeat: %d copies of %s's %d records are more than %d records", times, name, n, int64(MaxRepeatRecords))
	case last+float64(times-1)*shift > swf.MaxSeconds:
		return 0, fmt.Errorf("repeat: %d copies of %s take submit times beyond %g s (swf.MaxSeconds)", times, name, float64(swf.MaxSeconds))
	case float64(maxID)*float64(times) > maxExact:
		return 0, fmt.Errorf("repeat: %d copies of %s take job numbers beyond 2^53", times, name)
	}

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
