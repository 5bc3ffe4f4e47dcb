package validate

import (
	"reflect"
	"strings"
	"testing"
)

func TestReadJobsCSV(t *testing.T) {
	// Columns in another order than the writer's, plus extra columns.
	const data = `final_state,job_id,extra,starting_time,submission_time,finish_time,requested_number_of_resources
COMPLETED_SUCCESSFULLY,1,x,0,0,10,2
COMPLETED_WALLTIME_REACHED,3,"a, quoted
cell",10,2,15,4
COMPLETED_SUCCESSFULLY,2,,1.5,1,5.25,2
`
	got, err := ReadJobsCSV(strings.NewReader(data), "jobs.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []Rec{
		{ID: 1, Submit: 0, Start: 0, Finish: 10, Procs: 2, State: StateCompleted},
		{ID: 3, Submit: 2, Start: 10, Finish: 15, Procs: 4, State: StateWalltime},
		{ID: 2, Submit: 1, Start: 1.5, Finish: 5.25, Procs: 2, State: StateCompleted},
	}
	if !reflect.DeepEqual(got, want) { // CPUs stay nil without the allocated_resources column
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func TestReadJobsCSVErrors(t *testing.T) {
	const header = "job_id,submission_time,starting_time,finish_time,requested_number_of_resources,final_state\n"
	const good = "1,0,0,10,2,COMPLETED_SUCCESSFULLY\n"
	for _, tc := range []struct{ name, data, want string }{
		{"malformed number", header + good + "2,1,x,5,2,COMPLETED_SUCCESSFULLY\n",
			`jobs.csv:3: column starting_time: invalid number "x"`},
		{"line counted across a multi-line cell", "note," + header + `"a
b",` + good + "n,z,1,1,5,2,COMPLETED_SUCCESSFULLY\n",
			`jobs.csv:4: column job_id: invalid integer "z"`},
		{"infinite", header + "2,1,1,inf,2,COMPLETED_SUCCESSFULLY\n",
			`jobs.csv:2: column finish_time: invalid number "inf"`},
		{"bad id", header + "j2,1,1,5,2,COMPLETED_SUCCESSFULLY\n",
			`jobs.csv:2: column job_id: invalid integer "j2"`},
		{"bad procs", header + "2,1,1,5,2.5,COMPLETED_SUCCESSFULLY\n",
			`jobs.csv:2: column requested_number_of_resources: invalid integer "2.5"`},
		{"missing column", "job_id,submission_time,starting_time,finish_time,final_state\n",
			"jobs.csv:1: missing column requested_number_of_resources"},
		{"duplicate column", "job_id,job_id\n", "jobs.csv:1: column job_id appears twice"},
		{"field count", header + good + "1,2\n", "jobs.csv:3: wrong number of fields"},
		{"bad quote", header + `1,"0"x,0,10,2,S` + "\n", "jobs.csv:2: extraneous or missing \" in quoted-field"},
		{"empty", "", "jobs.csv: empty file, want a header row"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadJobsCSV(strings.NewReader(tc.data), "jobs.csv")
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}

// The header our writer emits: Batsim's columns, allocated_resources
// between stretch and final_state.
const fullHeader = "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time," +
	"success,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources," +
	"final_state,start_reason\n"

func TestReadJobsCSVAllocatedResources(t *testing.T) {
	// Job 2 is zero-length and still lists its CPUs.
	const data = fullHeader +
		"1,w,p,0,5,20,1,0,10,10,0,10,1,0-3 8,COMPLETED_SUCCESSFULLY,head\n" +
		"2,w,p,1,2,20,1,10,0,10,9,9,,5 7,COMPLETED_SUCCESSFULLY,backfill\n" +
		"3,w,p,2,1,20,1,10,5,15,8,13,2.6,2147483647,COMPLETED_WALLTIME_REACHED,head\n"
	got, err := ReadJobsCSV(strings.NewReader(data), "jobs.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []Rec{
		{ID: 1, Submit: 0, Start: 0, Finish: 10, Procs: 5, State: StateCompleted, CPUs: []Interval{{0, 3}, {8, 8}}},
		{ID: 2, Submit: 1, Start: 10, Finish: 10, Procs: 2, State: StateCompleted, CPUs: []Interval{{5, 5}, {7, 7}}},
		{ID: 3, Submit: 2, Start: 10, Finish: 15, Procs: 1, State: StateWalltime, CPUs: []Interval{{MaxCPU, MaxCPU}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func TestReadJobsCSVAllocatedResourcesErrors(t *testing.T) {
	const row1 = "1,w,p,0,4,20,1,0,10,10,0,10,1,0-3,COMPLETED_SUCCESSFULLY,head\n"
	row := func(cpus string) string {
		return "2,w,p,1,4,20,1,10,5,15,9,14,2.8," + cpus + ",COMPLETED_SUCCESSFULLY,head\n"
	}
	for _, tc := range []struct{ name, data, want string }{
		{"not merged", fullHeader + row1 + row("0-1 2-3"),
			`jobs.csv:3: column allocated_resources: "0-1 2-3": token 2 "2-3": adjacent to token 1 "0-1", not merged (want "0-3")`},
		{"empty cell", fullHeader + row1 + row(""),
			`jobs.csv:3: column allocated_resources: "": empty, want at least one CPU id`},
		// The cell is not trimmed: a stray space is an error, not ignored.
		{"trailing space", fullHeader + row(`"0-3 "`),
			`jobs.csv:2: column allocated_resources: "0-3 ": token 2: empty (trailing space)`},
		{"line counted across a multi-line cell", fullHeader + row1 +
			"3,\"multi\nline\",p,1,4,20,1,10,5,15,9,14,2.8,4-7 3,COMPLETED_SUCCESSFULLY,head\n",
			`jobs.csv:4: column allocated_resources: "4-7 3": token 2 "3": not ascending (after token 1 "4-7")`},
		{"huge cell is cut in the message", fullHeader + row(strings.Repeat("9", 100)),
			`jobs.csv:2: column allocated_resources: "` + strings.Repeat("9", 64) + `"...: token 1 "` +
				strings.Repeat("9", 64) + `"...: id exceeds 2147483647`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadJobsCSV(strings.NewReader(tc.data), "jobs.csv")
			if err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

// Files with and without the column read the same except for CPUs, and
// both check: the CPU checks apply only where records list CPUs.
func TestReadJobsCSVWithAndWithoutColumn(t *testing.T) {
	const with = "job_id,submission_time,requested_number_of_resources,starting_time,finish_time,allocated_resources,final_state\n" +
		"1,0,2,0,4,0-1,COMPLETED_SUCCESSFULLY\n" +
		"2,0,2,0,4,2-3,COMPLETED_SUCCESSFULLY\n"
	const without = "job_id,submission_time,requested_number_of_resources,starting_time,finish_time,final_state\n" +
		"1,0,2,0,4,COMPLETED_SUCCESSFULLY\n" +
		"2,0,2,0,4,COMPLETED_SUCCESSFULLY\n"
	in := []Input{{ID: 1, Runtime: 4, Procs: 2}, {ID: 2, Runtime: 4, Procs: 2}}
	a, err := ReadJobsCSV(strings.NewReader(with), "with.csv")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadJobsCSV(strings.NewReader(without), "without.csv")
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if a[i].CPUs == nil || b[i].CPUs != nil {
			t.Errorf("record %d: CPUs %v with the column, %v without", i, a[i].CPUs, b[i].CPUs)
		}
		c := a[i]
		c.CPUs = nil
		if !reflect.DeepEqual(c, b[i]) {
			t.Errorf("record %d: %v with the column, %v without", i, a[i], b[i])
		}
	}
	for _, recs := range [][]Rec{a, b} {
		if err := Check(in, recs, Options{Procs: 4}); err != nil {
			t.Error(err)
		}
	}
	// Both jobs on CPUs 0-1: only the file with the column can tell.
	a[1].CPUs = []Interval{{0, 1}}
	want := "CPU conflict at time 0: CPUs 0-1 held by job 1 over [0, 4) and by job 2 over [0, 4)"
	if err := Check(in, a, Options{Procs: 4}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}
