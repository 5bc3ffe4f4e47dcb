package experiment

import (
	"errors"
	"fmt"
	"io"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics/energy"
	"github.com/schedlab/schedlab/platform/powercap"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
)

// The power cap of a run (PlatformSpec.PowerCap; docs/energy.md, "Power
// caps"): the kernel's check (engine.PowerCap) and the capping layer
// (policy/capping) around the policy.

// checkCap reports the problems of the cap: it needs the power model, a
// queue policy of the cluster model on a pool of CPUs, and jobs that end
// by their estimates (the layer plans the cap through them).
func (s *RunSpec) checkCap() []error {
	p, pol := s.Platform, s.Policy
	if p.PowerCap == "" {
		return nil
	}
	var errs []error
	add := func(err error) { errs = append(errs, &SettingError{Setting: "--power-cap", Err: err}) }
	if _, err := powercap.Parse(p.PowerCap); err != nil {
		add(fmt.Errorf("--power-cap %q: %v", p.PowerCap, err))
	}
	if p.Power == "" {
		add(errors.New("--power-cap needs --power (a power model: the cap bounds the machine's watts, docs/energy.md)"))
	}
	switch {
	case len(p.Nodes) > 0:
		add(errors.New("--power-cap does not go with --nodes yet (a pool of CPUs only)"))
	case len(p.Partitions) > 0:
		add(errors.New("--power-cap does not go with partitions yet"))
	case p.Avail.Used():
		add(errors.New("--power-cap does not go with reservations or failures yet"))
	case pol.Sleep != "":
		add(errors.New("--power-cap does not go with --sleep-after yet (the capping layer does not plan the power of switching CPUs)"))
	case s.Workload.Estimate == workload.EstimatePredict:
		add(errors.New("--power-cap does not go with --estimate predict yet (the predicting layer does not plan around unavailable CPUs, which the cap's windows are)"))
	case p.Continue:
		add(errors.New("--power-cap does not go with --on-overrun continue (a job that runs past its estimate could run past a fall of the cap)"))
	}
	if qp, err := LookupTracePolicy(pol.Name); err == nil && qp.Model != registry.ModelCluster {
		add(fmt.Errorf("--power-cap wraps a queue policy of the cluster model, not %s (%s)", qp.Name, qp.Model))
	}
	return errs
}

// capSpec is the run's cap: the layer's and the kernel's.
type capSpec struct {
	cap *powercap.Cap
	eng *engine.PowerCap
}

// capLayer is the run's cap (nil without PlatformSpec.PowerCap).
func (s *RunSpec) capLayer() (*capSpec, error) {
	if s.Platform.PowerCap == "" {
		return nil, nil
	}
	c, err := powercap.Parse(s.Platform.PowerCap)
	if err != nil {
		return nil, fmt.Errorf("--power-cap %q: %v", s.Platform.PowerCap, err)
	}
	pw, err := energy.ParsePower(s.Platform.Power)
	if err != nil {
		return nil, err
	}
	ts, ws := c.Steps()
	m := powercap.Model{IdleW: pw.IdleW, ComputeW: pw.ComputeW, OffW: pw.OffW, SwOnW: pw.OnW(), SwOffW: pw.OffSwitchW()}
	return &capSpec{cap: c, eng: &engine.PowerCap{Times: ts, Watts: ws, Model: m}}, nil
}

// CapInfo is summary.json's energy.cap: the cap and what it did.
type CapInfo struct {
	Spec string `json:"spec"` // as given
	// DefaultW is the cap outside the windows (absent: none).
	DefaultW *float64    `json:"default_w,omitempty"`
	Windows  []CapWindow `json:"windows,omitempty"`
	// HeldS is the time during which jobs waited while the cap kept
	// idle CPUs from them, HeldCPUS those CPUs times that time.
	HeldS    float64 `json:"held_s"`
	HeldCPUS float64 `json:"held_cpu_s"`
	// Rejected is the jobs no cap lets run, even on an idle machine.
	Rejected int64 `json:"rejected_jobs"`
}

// CapWindow is a window of the cap.
type CapWindow struct {
	StartS float64 `json:"start_s"`
	EndS   float64 `json:"end_s"`
	W      float64 `json:"cap_w"`
}

// capEnergy fills the energy section's cap.
func capEnergy(in *EnergyInfo, r *clusterRun) {
	if r == nil || r.capper == nil {
		return
	}
	c := r.capSpec.cap
	ci := &CapInfo{Spec: c.String(), HeldS: r.capper.HeldS(), HeldCPUS: r.capper.HeldCPUS(), Rejected: r.capper.Rejected()}
	if d := c.Default; d <= powercap.MaxWatts {
		ci.DefaultW = &d
	}
	for _, w := range c.Windows {
		ci.Windows = append(ci.Windows, CapWindow{w.Start, w.End, w.W})
	}
	in.Cap = ci
}

// writeCap prints the energy section's cap line.
func writeCap(w io.Writer, e *EnergyInfo) {
	c := e.Cap
	if c == nil {
		return
	}
	fmt.Fprintf(w, "power cap %s: jobs held by the cap %.6g s (%.6g idle CPU-s kept from them); %d job(s) rejected (above the highest cap)\n",
		c.Spec, c.HeldS, c.HeldCPUS, c.Rejected)
}
