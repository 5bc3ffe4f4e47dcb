package lublin

import (
	"fmt"
	"io"
	"strconv"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/workload/swf"
)

// Record is job j of a Source as an SWF record: its submit time,
// runtime, size (allocated and requested), requested time and user;
// status 1 (completed); queue 1 for a batch job and 0 (SWF's
// "interactive") for an interactive one; -1 (unknown) elsewhere.
func Record(j actual.Job, c Class) swf.Record {
	queue := 1
	if c == Interactive {
		queue = 0
	}
	return swf.Record{
		JobNumber: int64(j.ID), Submit: j.Submit, Wait: -1, Run: j.Runtime,
		AllocProcs: j.Procs, AvgCPU: -1, UsedMem: -1, ReqProcs: j.Procs,
		ReqTime: j.Request, ReqMem: -1, Status: 1, User: int(j.User), Group: int(j.Group),
		Exec: -1, Queue: queue, Partition: -1, PrecedingJob: -1, ThinkTime: -1,
	}
}

// Header is the SWF header of replication replication of seed under p:
// the machine size (MaxProcs), the job count (MaxJobs, MaxRecords) and
// comment lines naming the model, the seed and every parameter, so that
// the file says how to make it again.
func Header(p Params, seed uint64, replication int) swf.Header {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	users := "none (user -1)"
	if p.Users > 0 {
		users = fmt.Sprintf("%d, Zipf 1/k (a schedlab simplification, not part of the model)", p.Users)
	}
	req := "exact (request = runtime)"
	if p.Request != nil {
		req = "a requested-time model"
		if p.RequestName != "" {
			req = p.RequestName
		}
	}
	load := "none"
	if p.Load > 0 {
		load = g(p.Load)
	}
	lines := []string{
		" Version: 2.2",
		" Computer: synthetic (Lublin-Feitelson model)",
		" Installation: schedlab trace synth --model lublin",
		fmt.Sprintf(" MaxJobs: %d", p.Jobs),
		fmt.Sprintf(" MaxRecords: %d", p.Jobs),
		fmt.Sprintf(" MaxProcs: %d", p.Procs),
		" Note: U. Lublin and D. G. Feitelson, The workload on parallel supercomputers: modeling the characteristics of rigid jobs, JPDC 63(11):1105-1122, 2003",
		fmt.Sprintf(" Note: seed %d, replication %d, %s parameter set, daily cycle %v from hour %d", seed, replication, p.Class, p.DailyCycle, p.StartHour),
		fmt.Sprintf(" Note: arrival factor %s, runtime factor %s, target load %s, expected offered load %.4g", g(p.arrivalFactor()), g(p.RuntimeFactor), load, p.OfferedLoad()),
		fmt.Sprintf(" Note: users %s; requested times %s", users, req),
		fmt.Sprintf(" Note: size SerialProb %s Pow2Prob %s ULow %s UMed %s UHi %s UProb %s", g(p.SerialProb), g(p.Pow2Prob), g(p.ULow), g(p.UMed), g(p.UHi), g(p.UProb)),
		fmt.Sprintf(" Note: runtime A1 %s B1 %s A2 %s B2 %s PA %s PB %s", g(p.A1), g(p.B1), g(p.A2), g(p.B2), g(p.PA), g(p.PB)),
		fmt.Sprintf(" Note: arrivals AArr %s BArr %s ARAR %s ANum %s BNum %s", g(p.AArr), g(p.BArr), g(p.ARAR), g(p.ANum), g(p.BNum)),
	}
	return swf.Header{Version: "2.2", MaxJobs: int64(p.Jobs), MaxRecords: int64(p.Jobs), MaxProcs: p.Procs, Lines: lines}
}

// WriteSWF writes replication replication of seed under p to w as an SWF
// trace: Header, then one Record a job. It returns the first error of
// the parameters (Check), of the source or of w; w is flushed.
func WriteSWF(w io.Writer, p Params, seed uint64, replication int) error {
	src, err := New(p, seed, replication)
	if err != nil {
		return err
	}
	sw := swf.NewWriter(w)
	if err := sw.WriteHeader(Header(p, seed, replication)); err != nil {
		return err
	}
	var j actual.Job
	for {
		err := src.NextInto(&j)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := sw.Write(Record(j, p.Class)); err != nil {
			return err
		}
	}
	return sw.Flush()
}
