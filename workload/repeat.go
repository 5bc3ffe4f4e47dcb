package workload

import (
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
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

	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	var out io.Writer = tmp
	var gz *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		gz, _ = gzip.NewWriterLevel(tmp, gzip.BestSpeed)
		out = gz
	}
	w := swf.NewWriter(out)
	hdr.Lines = append(append([]string(nil), hdr.Lines...), fmt.Sprintf(" Note: schedlab trace repeat: %s repeated %d times, shifted by %g s each", name, times, shift))
	hdr.MaxJobs, hdr.MaxRecords = 0, 0
	if err = w.WriteHeader(hdr); err != nil {
		return 0, err
	}
	for k := 0; k < times; k++ {
		rd, err := OpenTrace(name)
		if err != nil {
			return 0, err
		}
		for {
			rec, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				rd.Close()
				return 0, err
			}
			if rec.Submit < 0 {
				continue
			}
			rec.Submit += float64(float64(k) * shift)
			rec.JobNumber += int64(k) * maxID
			if rec.PrecedingJob > 0 {
				rec.PrecedingJob += int64(k) * maxID
			}
			if err = w.Write(rec); err != nil {
				rd.Close()
				return 0, err
			}
			records++
		}
		rd.Close()
	}
	if err = w.Flush(); err != nil {
		return 0, err
	}
	if gz != nil {
		if err = gz.Close(); err != nil {
			return 0, err
		}
	}
	if err = tmp.Close(); err != nil {
		return 0, err
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return 0, err
	}
	return records, os.Rename(tmp.Name(), path)
}
