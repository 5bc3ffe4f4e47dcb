package swf

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

var statsTrace = lines(
	"; Computer: Test Machine",
	"; Installation: Lab",
	"; MaxNodes: 5",
	"; MaxProcs: 10",
	"; UnixStartTime: 843480031",
	//id submit wait run alloc cpu mem req reqtime reqmem status user group exec queue part prec think
	"1  100  -1  50  2 -1 -1  2 60 -1 1 1 1 -1 -1 -1 -1 -1", // end 150 (unknown wait counts as 0)
	"2  200 900  10 10 -1 -1 10 60 -1 1 1 1 -1 -1 -1 -1 -1", // end 1110
	"3   -1  -1  -1 -1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1", // skipped: no submit
	"4  300   0  20 20 -1 -1 20 60 -1 1 1 1 -1 -1 -1 -1 -1", // rejected: 20 > 10
	"5 1000  -1 200  1 -1 -1  1 60 -1 1 1 1 -1 -1 -1 -1 -1", // end 1200, the last
)

func TestComputeStats(t *testing.T) {
	r, err := NewReader(strings.NewReader(statsTrace), "stats.swf")
	if err != nil {
		t.Fatal(err)
	}
	st, err := ComputeStats(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{
		Name:        "stats.swf",
		Header:      r.Header(),
		Counts:      Counts{Read: 5, Jobs: 3, SkippedNoSubmit: 1, Rejected: 1},
		MaxProcs:    10,
		FirstSubmit: 100,
		LastSubmit:  1000,
		LastEnd:     1200,
		MaxJobProcs: 10,
		MaxJobID:    5,
		TotalWork:   2*50 + 10*10 + 1*200,
		OfferedLoad: 400.0 / (10 * 900),
	}
	if st.Header.Computer != "Test Machine" {
		t.Errorf("header not carried: %+v", st.Header)
	}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("got  %+v\nwant %+v", st, want)
	}
}

func TestComputeStatsClamp(t *testing.T) {
	r, _ := NewReader(strings.NewReader(statsTrace), "stats.swf")
	st, err := ComputeStats(r, Options{Clamp: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Counts.Jobs != 4 || st.Counts.Clamped != 1 || st.MaxJobProcs != 10 || st.TotalWork != 400+10*20 {
		t.Errorf("clamped stats %+v", st)
	}
}

func TestComputeStatsUnknownMachine(t *testing.T) {
	r, _ := NewReader(strings.NewReader(lines(good(1, 0), good(2, 100))), "m.swf")
	st, err := ComputeStats(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.MaxProcs != 0 || st.OfferedLoad != 0 || st.TotalWork != 80 {
		t.Errorf("stats %+v: want no machine size, no load, work 80", st)
	}
}

func TestComputeStatsStopsAtError(t *testing.T) {
	r, _ := NewReader(strings.NewReader(lines(good(1, 0), good(2, 100), "oops")), "x.swf")
	st, err := ComputeStats(r, Options{})
	checkParseError(t, err, ErrFieldCount, 3, 0, "")
	if st.Counts.Jobs != 2 || st.LastSubmit != 100 {
		t.Errorf("partial stats %+v", st)
	}
}

// statsText is what 'trace info' writes for trace (named name).
func statsText(t *testing.T, trace, name string) string {
	t.Helper()
	r, _ := NewReader(strings.NewReader(trace), name)
	st, err := ComputeStats(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := st.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestStatsWriteText(t *testing.T) {
	got := statsText(t, statsTrace, "stats.swf")
	want := `trace                 stats.swf
computer              Test Machine
installation          Lab
machine size          10 processors
nodes (header)        5
unix start time       843480031 (1996-09-23 12:00:31 UTC)
records read          5
usable jobs           3
skipped               1
  no submit time      1
  no run time         0
  no processors       0
rejected (too large)  1
clamped               0
first submit          100 s (1996-09-23 12:02:11 UTC)
last submit           1,000 s (1996-09-23 12:17:11 UTC)
last end              1,200 s (1996-09-23 12:20:31 UTC)
submit span           900 s (0.0 days)
span to last end      1,100 s (0.0 days)
largest job           10 processors
highest job number    5
total work            400 processor-seconds
offered load          0.044 (total work / (machine size x submit span))
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	if err := (Stats{}).WriteText(failWriter{}); err == nil {
		t.Error("a write error was not reported")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", -1234567: "-1,234,567", 27992: "27,992"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestStatsOneProcessor: a machine and a largest job of one processor are
// written in the singular.
func TestStatsOneProcessor(t *testing.T) {
	got := statsText(t, "; MaxProcs: 1\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", "one.swf")
	for _, want := range []string{"machine size          1 processor\n", "largest job           1 processor\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}
