package validate

import (
	"slices"
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
	if !slices.Equal(got, want) {
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
