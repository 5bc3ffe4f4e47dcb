package main

import (
	"bufio"
	"compress/gzip"
	"container/heap"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

type pjob struct {
	id, procs          int
	submit, run, est   float64
	start, end, estEnd float64
}

// result is what a simulation found.
type result struct {
	Jobs, Rejected, Skipped int
	SumWait                 float64
}

func main() {
	out := ""
	args := os.Args[1:]
	if len(args) == 3 && args[0] == "-out" {
		out, args = args[1], args[2:]
	}
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: plaineasy [-out FILE] TRACE.swf[.gz]")
		os.Exit(2)
	}
	t0 := time.Now()
	f, err := os.Open(args[0])
	if err != nil {
		fail(err)
	}
	defer f.Close()
	var w io.Writer = io.Discard
	var bw *bufio.Writer
	if out != "" {
		o, err := os.Create(out)
		if err != nil {
			fail(err)
		}
		defer o.Close()
		bw = bufio.NewWriterSize(o, 1<<16)
		w = bw
	}
	res, err := simulate(f, w)
	if err == nil && bw != nil {
		err = bw.Flush()
	}
	if err != nil {
		fail(err)
	}
	fmt.Printf("%d jobs (%d rejected, %d skipped), mean wait %.6f s, simulated in %.3f s\n",
		res.Jobs, res.Rejected, res.Skipped, res.SumWait/float64(max(res.Jobs, 1)), time.Since(t0).Seconds())
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "plaineasy:", err)
	os.Exit(1)
}

// endHeap orders running jobs by actual end, then id.
type endHeap []*pjob

func (h endHeap) Len() int { return len(h) }
func (h endHeap) Less(i, j int) bool {
	if h[i].end != h[j].end {
		return h[i].end < h[j].end
	}
	return h[i].id < h[j].id
}
func (h endHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *endHeap) Push(x any)   { *h = append(*h, x.(*pjob)) }
func (h *endHeap) Pop() any {
	s := *h
	x := s[len(s)-1]
	*h = s[:len(s)-1]
	return x
}

// span is s+d, or the next float after s when that does not move s.
func span(s, d float64) float64 {
	if e := s + d; e > s {
		return e
	}
	return math.Nextafter(s, math.Inf(1))
}

// simulate runs EASY over the SWF text in r (gzip or plain) and writes
// "id,start" for every job, in completion order, to w.
func simulate(r io.Reader, w io.Writer) (result, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var in io.Reader = br
	if m, _ := br.Peek(2); len(m) == 2 && m[0] == 0x1f && m[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return result{}, err
		}
		in = gz
	}
	lr := bufio.NewReaderSize(in, 1<<20)

	var res result
	total, free := 0, 0
	var queue []*pjob
	var running []*pjob // by estimated end, for the shadow time
	var ends endHeap
	var next *pjob // the next arrival, read ahead
	line := 0
	var v [18]float64
	readNext := func() error {
		next = nil
		for {
			b, err := lr.ReadSlice('\n')
			if err == io.EOF && len(b) == 0 {
				return nil
			}
			if err != nil && err != io.EOF {
				return err
			}
			line++
			b = trim(b)
			if len(b) == 0 {
				continue
			}
			if b[0] == ';' {
				text := string(b[1:])
				if k, val, ok := strings.Cut(text, ":"); ok && strings.TrimSpace(k) == "MaxProcs" {
					n, err := strconv.Atoi(strings.TrimSpace(val))
					if err != nil {
						return fmt.Errorf("line %d: MaxProcs: %v", line, err)
					}
					total, free = n, n
				}
				continue
			}
			if err := fields(b, &v); err != nil {
				return fmt.Errorf("line %d: %v", line, err)
			}
			procs := int(v[4])
			if procs <= 0 {
				procs = int(v[7])
			}
			if v[1] == -1 || v[3] == -1 || procs <= 0 {
				res.Skipped++
				continue
			}
			if total > 0 && procs > total {
				res.Rejected++
				continue
			}
			j := &pjob{id: int(v[0]), procs: procs, submit: v[1], run: v[3], est: v[3]}
			if req := v[8]; req > 0 {
				j.est, j.run = req, min(j.run, req)
			}
			next = j
			return nil
		}
	}
	if err := readNext(); err != nil {
		return res, err
	}
	if total <= 0 {
		return res, errors.New("the trace has no MaxProcs header")
	}
	var row []byte
	start := func(j *pjob, now float64) {
		j.start, j.end, j.estEnd = now, now+j.run, span(now, j.est)
		free -= j.procs
		heap.Push(&ends, j)
		k := sort.Search(len(running), func(i int) bool { return running[i].estEnd > j.estEnd })
		running = append(running, nil)
		copy(running[k+1:], running[k:])
		running[k] = j
		res.Jobs++
		res.SumWait += now - j.submit
	}
	for next != nil || len(ends) > 0 {
		now := math.Inf(1)
		if len(ends) > 0 {
			now = ends[0].end
		}
		if next != nil && next.submit < now {
			now = next.submit
		}
		// Completions, then arrivals, then one pass.
		for len(ends) > 0 && ends[0].end == now {
			j := heap.Pop(&ends).(*pjob)
			free += j.procs
			k := sort.Search(len(running), func(i int) bool { return running[i].estEnd >= j.estEnd })
			for running[k] != j {
				k++
			}
			running = append(running[:k], running[k+1:]...)
			row = strconv.AppendInt(row[:0], int64(j.id), 10)
			row = append(row, ',')
			row = strconv.AppendFloat(row, j.start, 'f', -1, 64)
			row = append(row, '\n')
			if _, err := w.Write(row); err != nil {
				return res, err
			}
		}
		for next != nil && next.submit == now {
			// Queue order is (submit, id): insert from the back.
			k := len(queue)
			queue = append(queue, next)
			for k > 0 && queue[k-1].submit == next.submit && queue[k-1].id > next.id {
				queue[k] = queue[k-1]
				k--
			}
			queue[k] = next
			if err := readNext(); err != nil {
				return res, err
			}
		}
		queue = pass(queue, now, &free, &running, start)
	}
	return res, nil
}

// pass is one EASY pass at now; it returns the jobs left waiting.
func pass(queue []*pjob, now float64, free *int, running *[]*pjob, start func(*pjob, float64)) []*pjob {
	h := 0
	for h < len(queue) && queue[h].procs <= *free {
		start(queue[h], now)
		h++
	}
	queue = queue[h:]
	if len(queue) == 0 || *free == 0 {
		return queue
	}
	// The head's shadow time: walk the running jobs by estimated end.
	head := queue[0]
	rs := *running
	avail, shadow, extra := *free, math.Inf(1), 0
	for i := 0; i < len(rs); {
		t := rs[i].estEnd
		for ; i < len(rs) && rs[i].estEnd == t; i++ {
			avail += rs[i].procs
		}
		if avail >= head.procs {
			shadow, extra = t, avail-head.procs
			break
		}
	}
	kept := queue[:1]
	for _, j := range queue[1:] {
		if *free > 0 && j.procs <= *free {
			if span(now, j.est) <= shadow {
				start(j, now)
				continue
			}
			if j.procs <= extra {
				extra -= j.procs
				start(j, now)
				continue
			}
		}
		kept = append(kept, j)
	}
	return kept
}

// trim drops blanks and the line end at both ends of b.
func trim(b []byte) []byte {
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// fields parses the 18 numbers of a job line into v.
func fields(b []byte, v *[18]float64) error {
	n := 0
	for i := 0; i < len(b); {
		if isSpace(b[i]) {
			i++
			continue
		}
		s := i
		for i < len(b) && !isSpace(b[i]) {
			i++
		}
		if n == 18 {
			return fmt.Errorf("more than 18 fields")
		}
		x, err := number(b[s:i])
		if err != nil {
			return fmt.Errorf("field %d: %v", n+1, err)
		}
		v[n] = x
		n++
	}
	if n != 18 {
		return fmt.Errorf("%d fields, want 18", n)
	}
	return nil
}

// number parses a plain integer directly and anything else with strconv.
func number(b []byte) (float64, error) {
	d, neg := b, b[0] == '-'
	if neg {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 15 {
		return strconv.ParseFloat(string(b), 64)
	}
	var m int64
	for _, c := range d {
		if c < '0' || c > '9' {
			return strconv.ParseFloat(string(b), 64)
		}
		m = m*10 + int64(c-'0')
	}
	if neg {
		m = -m
	}
	return float64(m), nil
}
