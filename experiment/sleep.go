package experiment

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics/energy"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/sleep"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
)

// The idle sleeper (PolicySpec.Sleep, package policy/sleep) and the
// power states it needs (a power model with states, PlatformSpec.Power;
// docs/energy.md, "Power states").

// checkSleep reports the problems of the sleeper: it needs a power model
// with states and a queue policy of the cluster model on a pool of CPUs,
// without partitions, reservations or failures.
func (s *RunSpec) checkSleep() []error {
	p, pol := s.Platform, s.Policy
	if pol.Sleep == "" {
		return nil
	}
	var errs []error
	add := func(err error) { errs = append(errs, &SettingError{Setting: "--sleep-after", Err: err}) }
	if _, err := sleep.ParseParams(pol.Sleep); err != nil {
		add(fmt.Errorf("--sleep-after %v", err))
	}
	if pw, err := energy.ParsePower(p.Power); p.Power == "" || (err == nil && !pw.States()) {
		add(fmt.Errorf("--sleep-after: %w", sleep.ErrNoStates))
	}
	switch {
	case len(p.Nodes) > 0:
		add(errors.New("--sleep-after does not go with --nodes yet (power states on a pool of CPUs only)"))
	case len(p.Partitions) > 0:
		add(errors.New("--sleep-after does not go with partitions yet"))
	case p.Avail.Used():
		add(errors.New("--sleep-after does not go with reservations or failures yet"))
	case s.Workload.Estimate == workload.EstimatePredict:
		add(errors.New("--sleep-after does not go with --estimate predict yet (the predicting layer does not plan around unavailable CPUs, which the off CPUs are)"))
	}
	if qp, err := LookupTracePolicy(pol.Name); err == nil && qp.Model != registry.ModelCluster {
		add(fmt.Errorf("--sleep-after wraps a queue policy of the cluster model, not %s (%s)", qp.Name, qp.Model))
	}
	return errs
}

// sleepLayer is the run's sleeper and the engine's switching times (nil
// without PolicySpec.Sleep).
func (s *RunSpec) sleepLayer() (*sleep.Params, *engine.Switching, error) {
	if s.Policy.Sleep == "" {
		return nil, nil, nil
	}
	p, err := sleep.ParseParams(s.Policy.Sleep)
	if err != nil {
		return nil, nil, err
	}
	pw, err := energy.ParsePower(s.Platform.Power)
	if err != nil || !pw.States() {
		return nil, nil, sleep.ErrNoStates
	}
	return &p, &engine.Switching{OnS: pw.OnS, OffS: pw.OffS}, nil
}

// StatesInfo is summary.json's energy.states: the model's power states
// and what the CPUs did in them over [0, end_s] (docs/energy.md).
type StatesInfo struct {
	OffW      float64 `json:"off_w"`
	OnS       float64 `json:"switch_on_s"`
	OnJ       float64 `json:"switch_on_j"`
	OffS      float64 `json:"switch_off_s"`
	OffJ      float64 `json:"switch_off_j"`
	SwitchOns int64   `json:"switch_ons"`  // CPU switches on begun
	SwitchOff int64   `json:"switch_offs"` // CPU switches off begun
	OffCPUS   float64 `json:"off_cpu_s"`   // CPU-seconds off
	SwOnCPUS  float64 `json:"switching_on_cpu_s"`
	SwOffCPUS float64 `json:"switching_off_cpu_s"`
	SwitchJ   float64 `json:"switching_j"` // joules drawn switching
	OffJoules float64 `json:"off_j"`       // joules drawn off
	// Sleep is the sleeper's settings (PolicySpec.Sleep).
	SleepAfterS float64 `json:"sleep_after_s"`
	Keep        int     `json:"keep"`
}

// statesEnergy fills the energy section's states (a run with the
// sleeper).
func statesEnergy(in *EnergyInfo, r energy.Result, pw energy.Power, sp *sleep.Params) {
	if sp == nil {
		return
	}
	in.States = &StatesInfo{OffW: pw.OffW, OnS: pw.OnS, OnJ: pw.OnJ, OffS: pw.OffS, OffJ: pw.OffJ,
		SwitchOns: r.SwitchOns, SwitchOff: r.SwitchOffs, OffCPUS: r.OffCPUSec, SwOnCPUS: r.SwOnCPUSec, SwOffCPUS: r.SwOffCPUSec,
		SwitchJ: r.SwitchJ, OffJoules: r.OffJ, SleepAfterS: sp.After, Keep: sp.Keep}
}

// writeStates prints the energy section's states line.
func writeStates(w io.Writer, e *EnergyInfo) {
	st := e.States
	if st == nil {
		return
	}
	fmt.Fprintf(w, "idle sleeper (off after %g s idle, keep %d on; %g W off, on %g s / %g J, off %g s / %g J): %d switches off, %d on; %.6g CPU-s off, %.6g J switching\n",
		st.SleepAfterS, st.Keep, st.OffW, st.OnS, st.OnJ, st.OffS, st.OffJ, st.SwitchOff, st.SwitchOns, st.OffCPUS, st.SwitchJ)
}

// powerLog writes power.csv: time_s,cpus,from,to, a row at every switch
// of CPUs from one power state to the next (cpus in jobs.csv's
// allocated_resources syntax, "0-3 8"; states "on", "switching_off",
// "off", "switching_on"). Every CPU is on at time 0.
type powerLog struct {
	engine.NopListener
	w *bufio.Writer
	b []byte
}

func newPowerLog(f *os.File) *powerLog {
	l := &powerLog{w: bufio.NewWriter(f)}
	l.w.WriteString("time_s,cpus,from,to\n")
	return l
}

// PowerStateName is a power state as power.csv names it.
func PowerStateName(s policy.PowerState) string { return strings.ReplaceAll(s.String(), " ", "_") }

func (l *powerLog) PowerSwitched(now float64, cpus platform.Runs, from, to policy.PowerState) {
	b := strconv.AppendFloat(l.b[:0], now, 'g', -1, 64)
	b = append(b, ',')
	b = cpus.AppendText(b)
	b = append(b, ',')
	b = append(b, PowerStateName(from)...)
	b = append(b, ',')
	b = append(b, PowerStateName(to)...)
	b = append(b, '\n')
	l.w.Write(b)
	l.b = b
}
