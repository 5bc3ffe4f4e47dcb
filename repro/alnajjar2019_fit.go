package repro

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/stats"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

// RankFit is the least-squares fit of a trace's runtimes on its jobs'
// CPUs and memory per CPU (al-najjar-2019's curve estimation, Tables 2-9):
// the coefficients plug into JRB's --rank-coefficients.
type RankFit struct {
	Trace string `json:"trace"`
	// N jobs fitted; LeftOut = NoMemory + NoCPU, the jobs left out: those
	// without memory (SWF fields 7 and 10 unknown) and the records
	// without a processor count (fewer than 1 CPU). Skipped are the
	// records without submit or run time, Rejected those larger than the
	// header's MaxProcs: neither is a job of the trace for the simulator.
	N        int   `json:"n"`
	LeftOut  int64 `json:"left_out"`
	NoMemory int64 `json:"left_out_no_memory"`
	NoCPU    int64 `json:"left_out_no_cpu"`
	Skipped  int64 `json:"records_skipped"`
	Rejected int64 `json:"records_rejected"`
	// Linear: runtime ~ constant + cpu*CPU + mem*MemMB. Log: runtime ~
	// constant + cpu*log10(CPU) + mem*log10(MemMB).
	Linear FitTable `json:"linear"`
	Log    FitTable `json:"log"`
}

// FitTable is one regression, keyed for people and programs.
type FitTable struct {
	Model        string             `json:"model"`
	Coefficients map[string]float64 `json:"coefficients"`
	StdErrors    map[string]float64 `json:"std_errors"`
	Lower95      map[string]float64 `json:"lower_95"`
	Upper95      map[string]float64 `json:"upper_95"`
	// Correlation of the estimates, rows and columns in Params order.
	Params      []string    `json:"params"`
	Correlation [][]float64 `json:"correlation"`
	ANOVA       ANOVA       `json:"anova"`
	RSquared    float64     `json:"r_squared"`
	// Flag is the rank option that uses the fit.
	Flag string `json:"flag"`
}

// ANOVA is the analysis of variance of a fit: sums of squares, degrees of
// freedom and mean squares.
type ANOVA struct {
	Regression  ANOVARow `json:"regression"`
	Residual    ANOVARow `json:"residual"`
	Uncorrected ANOVARow `json:"uncorrected_total"`
	Corrected   ANOVARow `json:"corrected_total"`
}

// ANOVARow is one line of an ANOVA table (MeanSquare 0 for the totals).
type ANOVARow struct {
	SS         float64 `json:"sum_of_squares"`
	DF         int     `json:"df"`
	MeanSquare float64 `json:"mean_square,omitempty"`
}

// FitParams are the names of the fitted parameters, in order.
func FitParams() []string { return []string{"constant", "cpu", "mem"} }

func fitTable(model, rank string, f *stats.OLS) FitTable {
	t := FitTable{Model: model, Coefficients: map[string]float64{}, StdErrors: map[string]float64{},
		Lower95: map[string]float64{}, Upper95: map[string]float64{}, Params: FitParams(), Correlation: f.Corr,
		RSquared: f.RSquared,
		ANOVA: ANOVA{Regression: ANOVARow{f.SSRegression, f.P, f.MSRegression}, Residual: ANOVARow{f.SSResidual, f.N - f.P, f.MSResidual},
			Uncorrected: ANOVARow{SS: f.SSUncorrected, DF: f.N}, Corrected: ANOVARow{SS: f.SSCorrected, DF: f.N - 1}}}
	for j, p := range FitParams() {
		t.Coefficients[p], t.StdErrors[p], t.Lower95[p], t.Upper95[p] = f.Coef[j], f.SE[j], f.Lower[j], f.Upper[j]
	}
	t.Flag = fmt.Sprintf("--rank %s --rank-coefficients=%.6g,%.6g,%.6g", rank, f.Coef[0], f.Coef[1], f.Coef[2])
	return t
}

// FitJobs fits jobs (runtime in seconds, memory per CPU in KB, converted to
// MB as JRB's rank reads it). Jobs without memory (Mem <= 0) or with fewer
// than 1 CPU are left out and counted. The log fit takes log10 of CPUs and
// MB as they are (memory below 1 MB gives a negative log10, as in any
// curve estimation; JRB's log rank counts log10 of a value below 1 as 0).
func FitJobs(jobs []actual.Job) (*RankFit, error) {
	obs := make([]fitObs, len(jobs))
	for i := range jobs {
		obs[i] = fitObs{procs: jobs[i].Procs, mem: jobs[i].Mem, runtime: jobs[i].Runtime}
	}
	return fitObservations(obs)
}

// fitObs is what a fit reads of a job.
type fitObs struct {
	procs        int
	mem, runtime float64
}

func fitObservations(jobs []fitObs) (*RankFit, error) {
	r := &RankFit{}
	n := 0
	for i := range jobs {
		switch {
		case jobs[i].procs < 1:
			r.NoCPU++
		case !(jobs[i].mem > 0):
			r.NoMemory++
		default:
			n++
		}
	}
	y, cpu, mem, lc, lm := make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n)
	for i := range jobs {
		j := &jobs[i]
		if j.procs < 1 || !(j.mem > 0) {
			continue
		}
		mb := j.mem / 1024
		y, cpu, mem = append(y, j.runtime), append(cpu, float64(j.procs)), append(mem, mb)
		lc, lm = append(lc, math.Log10(float64(j.procs))), append(lm, math.Log10(mb))
	}
	r.N = len(y)
	r.LeftOut = r.NoMemory + r.NoCPU
	lin, err := stats.FitOLS(y, cpu, mem)
	if err != nil {
		return nil, fmt.Errorf("linear fit: %w", err)
	}
	lg, err := stats.FitOLS(y, lc, lm)
	if err != nil {
		return nil, fmt.Errorf("log fit: %w", err)
	}
	r.Linear = fitTable("runtime ~ constant + cpu*CPU + mem*MemMB", "linear", lin)
	r.Log = fitTable("runtime ~ constant + cpu*log10(CPU) + mem*log10(MemMB)", "log", lg)
	return r, nil
}

// MaxFitJobs bounds the jobs a trace fit reads (24 bytes each while read,
// then about 100 in the fit's columns and design matrices).
const MaxFitJobs = 50_000_000

// FitTrace reads an SWF trace (path or bare name) and fits it.
func FitTrace(name string) (*RankFit, error) {
	rd, err := workload.OpenTrace(name)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	src := swf.NewSource(rd, swf.Options{})
	var jobs []fitObs
	for {
		j, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(jobs) == MaxFitJobs {
			return nil, fmt.Errorf("trace %s: more than %d jobs, the limit of a fit", rd.Name(), MaxFitJobs)
		}
		jobs = append(jobs, fitObs{procs: j.Procs, mem: j.Mem, runtime: j.Runtime})
	}
	c := src.Counts()
	r, err := fitObservations(jobs)
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", rd.Name(), err)
	}
	r.Trace = rd.Name()
	r.NoCPU += c.SkippedNoProcs
	r.LeftOut += c.SkippedNoProcs
	r.Skipped = c.SkippedNoSubmit + c.SkippedNoRuntime
	r.Rejected = c.Rejected
	return r, nil
}
