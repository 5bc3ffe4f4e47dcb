package experiment

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// plannedCSV writes planned.csv: every backfilling reservation a policy
// makes or moves (policy.ReservationReporter), one row per change:
// job_id, time (the pass that made it), planned_start (the reserved
// start). A reservation kept unchanged from one pass to the next is not
// written again.
type plannedCSV struct {
	w    *bufio.Writer
	last map[job.ID]float64
	err  error
	buf  []byte
}

// newPlannedCSV hooks a plannedCSV to pol, or says why it cannot: pol
// holds no reservations.
func newPlannedCSV(w io.Writer, pol namedPolicy) (*plannedCSV, error) {
	rr := policy.CapsOf(pol).Reserve
	if rr == nil {
		return nil, fmt.Errorf("--planned records backfilling reservations, and policy %s makes none (easy, conservative, backfill, flexible do)", pol.Name())
	}
	p := &plannedCSV{w: bufio.NewWriterSize(w, 64<<10), last: map[job.ID]float64{}}
	_, p.err = p.w.WriteString("job_id,time,planned_start\n")
	rr.SetOnReserve(p.reserve)
	return p, nil
}

func (p *plannedCSV) reserve(now float64, id job.ID, at float64) {
	if prev, ok := p.last[id]; ok && prev == at || p.err != nil {
		return
	}
	p.last[id] = at
	b := strconv.AppendInt(p.buf[:0], int64(id), 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, now, 'f', -1, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, at, 'f', -1, 64)
	b = append(b, '\n')
	p.buf = b
	_, p.err = p.w.Write(b)
}

// flush ends the file: its first write error, if any.
func (p *plannedCSV) flush() error {
	if p.err != nil {
		return p.err
	}
	return p.w.Flush()
}
