package htmlreport

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"strconv"
)

// col is one embedded column: T is "i32" (Int32Array) or "f64"
// (Float64Array); B is the little-endian bytes in base64.
type col struct {
	T string `json:"t"`
	B string `json:"b"`
}

// numCol stores vs as Int32 when every value is an integer in range, else
// as Float64.
func numCol(vs []float64) col {
	ints := true
	for _, v := range vs {
		if v != math.Trunc(v) || v < math.MinInt32 || v > math.MaxInt32 {
			ints = false
			break
		}
	}
	if ints {
		b := make([]byte, 4*len(vs))
		for i, v := range vs {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(int32(v)))
		}
		return col{"i32", base64.StdEncoding.EncodeToString(b)}
	}
	b := make([]byte, 8*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return col{"f64", base64.StdEncoding.EncodeToString(b)}
}

func i32Col(vs []int32) col {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return col{"i32", base64.StdEncoding.EncodeToString(b)}
}

// dictCol is a string column: the distinct values in order of first
// appearance and one Int32 index per row.
type dictCol struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
	Index  col      `json:"index"`
}

func newDictCol(name string, vs []string) dictCol {
	at := map[string]int32{}
	d := dictCol{Name: name, Values: []string{}}
	idx := make([]int32, len(vs))
	for i, v := range vs {
		k, ok := at[v]
		if !ok {
			k = int32(len(d.Values))
			at[v] = k
			d.Values = append(d.Values, v)
		}
		idx[i] = k
	}
	d.Index = i32Col(idx)
	return d
}

// series is a chart over time: Y[i] is the mean over [T0+i*W, T0+(i+1)*W).
type series struct {
	T0 float64   `json:"t0"`
	W  float64   `json:"w"`
	Y  []float64 `json:"y"`
}

// timeBins is the number of bins of the utilization and queue charts.
const timeBins = 800

// overTime returns utilization (busy CPUs / procs) and queue length (jobs
// submitted and not started), each averaged over timeBins equal bins
// spanning the first submission to the last finish. Each job adds its
// weight over a span: the partial bins at both ends directly, the full
// bins between through a difference array, so the cost is O(jobs + bins).
func overTime(j *runJobs, procs int) (util, queue series) {
	t0, t1 := timeSpan(j)
	return overTimeIn(j, procs, t0, t1)
}

// timeSpan is the first submission and the last finish of j ([0, 1] for
// no jobs).
func timeSpan(j *runJobs) (t0, t1 float64) {
	n := len(j.id)
	t0, t1 = math.Inf(1), math.Inf(-1)
	for i := 0; i < n; i++ {
		t0 = math.Min(t0, j.submit[i])
		t1 = math.Max(t1, j.finish[i])
	}
	if n == 0 {
		t0, t1 = 0, 1
	}
	return t0, t1
}

// overTimeIn is overTime over the bins of the span [t0, t1], which must
// hold every job's submission and finish (the runs of a comparison share
// one span, so their series overlay bin by bin).
func overTimeIn(j *runJobs, procs int, t0, t1 float64) (util, queue series) {
	n := len(j.id)
	w := (t1 - t0) / timeBins
	if w <= 0 {
		w = 1
	}
	span := func(acc, full []float64, a, b, weight float64) {
		if b <= a || weight == 0 {
			return
		}
		bin := func(t float64) int {
			k := int(math.Floor((t - t0) / w))
			return min(max(k, 0), timeBins-1)
		}
		lo, hi := bin(a), bin(b)
		if lo == hi {
			acc[lo] += weight * (b - a)
			return
		}
		acc[lo] += weight * (t0 + float64(lo+1)*w - a)
		acc[hi] += weight * (b - (t0 + float64(hi)*w))
		full[lo+1] += weight
		full[hi] -= weight
	}
	ua, uf := make([]float64, timeBins), make([]float64, timeBins+1)
	qa, qf := make([]float64, timeBins), make([]float64, timeBins+1)
	for i := 0; i < n; i++ {
		span(ua, uf, j.start[i], j.finish[i], j.procs[i])
		span(qa, qf, j.submit[i], j.start[i], 1)
	}
	finish := func(acc, full []float64, scale float64) []float64 {
		run := 0.0
		for k := range acc {
			run += full[k]
			acc[k] = (acc[k] + run*w) / w / scale
		}
		return acc
	}
	p := float64(procs)
	if p <= 0 {
		p = 1
	}
	return series{t0, w, finish(ua, uf, p)}, series{t0, w, finish(qa, qf, 1)}
}

// histogram counts values in labelled bins: bin k holds Edges[k] <= v <
// Edges[k+1] (the last bin is open).
type histogram struct {
	Labels []string `json:"labels"`
	Counts []int    `json:"counts"`
	Title  string   `json:"title"`
}

func newHistogram(title string, edges []float64, labels []string, vs []float64) histogram {
	h := histogram{Labels: labels, Counts: make([]int, len(labels)), Title: title}
	for _, v := range vs {
		k := 0
		for k+1 < len(edges) && v >= edges[k+1] {
			k++
		}
		h.Counts[k]++
	}
	return h
}

var (
	waitEdges  = []float64{0, 1, 60, 600, 3600, 4 * 3600, 86400}
	waitLabels = []string{"< 1 s", "1 s - 1 min", "1 - 10 min", "10 min - 1 h", "1 - 4 h", "4 h - 1 d", "≥ 1 d"}
	bsldEdges  = []float64{0, 1.0000001, 2, 5, 10, 100, 1000}
	bsldLabels = []string{"1", "1 - 2", "2 - 5", "5 - 10", "10 - 100", "100 - 1000", "≥ 1000"}
)

// distributions returns the histograms of wait and bounded slowdown
// max(1, (finish - submit) / max(finish - start, tau)).
func distributions(j *runJobs, tau float64) (wait, bsld histogram) {
	ws := make([]float64, len(j.id))
	bs := make([]float64, len(j.id))
	for i := range j.id {
		ws[i] = j.start[i] - j.submit[i]
		bs[i] = math.Max(1, (j.finish[i]-j.submit[i])/math.Max(j.finish[i]-j.start[i], tau))
	}
	return newHistogram("wait (jobs per bin)", waitEdges, waitLabels, ws),
		newHistogram("bounded slowdown, tau = "+strconv.FormatFloat(tau, 'g', -1, 64)+" s (jobs per bin)", bsldEdges, bsldLabels, bs)
}
