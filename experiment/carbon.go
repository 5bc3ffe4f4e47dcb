package experiment

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/schedlab/schedlab/metrics/energy"
	"github.com/schedlab/schedlab/platform/signal"
	"github.com/schedlab/schedlab/policy/carbon"
	"github.com/schedlab/schedlab/registry"
)

// The carbon and price signals of a run (PlatformSpec.Carbon,
// PlatformSpec.Price; docs/energy.md) and the carbon-aware delay
// (PolicySpec.CarbonDelay, package policy/carbon).

// signals caches the signal files read, by path and kind, so that the
// replications of a sweep read each once (lookup only, never iterated).
var signals struct {
	sync.Mutex
	m map[signalKey]*signal.Signal
}

type signalKey struct {
	path   string
	carbon bool
}

// loadSignal reads the signal file at path: a carbon intensity
// (gCO2/kWh, values >= 0) or a price (currency per kWh, any sign).
func loadSignal(path string, isCarbon bool) (*signal.Signal, error) {
	if path == "" {
		return nil, nil
	}
	k := signalKey{path, isCarbon}
	signals.Lock()
	defer signals.Unlock()
	if s := signals.m[k]; s != nil {
		return s, nil
	}
	s, err := signal.ReadFile(path, isCarbon)
	if err != nil {
		return nil, err
	}
	if signals.m == nil {
		signals.m = map[signalKey]*signal.Signal{}
	}
	signals.m[k] = s
	return s, nil
}

// runSignals are the run's carbon and price signals (nil: none).
func runSignals(p PlatformSpec) (c, pr *signal.Signal, err error) {
	if c, err = loadSignal(p.Carbon, true); err != nil {
		return nil, nil, err
	}
	if pr, err = loadSignal(p.Price, false); err != nil {
		return nil, nil, err
	}
	return c, pr, nil
}

// checkSignals reports the problems of the signals and the delay: each
// needs what it stands on (a signal the power model, the delay the
// carbon signal and a queue policy of the cluster model, on a pool of
// CPUs or on nodes), the files must read, the metrics that need a signal have it.
func (s *RunSpec) checkSignals(ms []registry.Metric) []error {
	var errs []error
	add := func(setting string, err error) { errs = append(errs, &SettingError{Setting: setting, Err: err}) }
	p, pol := s.Platform, s.Policy
	for _, f := range []struct {
		flag, path string
		carbon     bool
	}{{"--carbon", p.Carbon, true}, {"--price", p.Price, false}} {
		if f.path == "" {
			continue
		}
		if p.Power == "" {
			add(f.flag, fmt.Errorf("%s needs --power (a power model: the signal weighs the machine's energy, docs/energy.md)", f.flag))
		}
		if _, err := loadSignal(f.path, f.carbon); err != nil {
			add(f.flag, fmt.Errorf("%s: %w", f.flag, err))
		}
	}
	for _, m := range ms {
		if (m.Requires == "platform.carbon" && p.Carbon == "") || (m.Requires == "platform.price" && p.Price == "") {
			flag := map[string]string{"platform.carbon": "--carbon", "platform.price": "--price"}[m.Requires]
			add("--metric", fmt.Errorf("--metric %s needs %s (a signal file, docs/energy.md)", m.Name, flag))
		}
	}
	if pol.CarbonDelay != "" {
		if _, err := carbon.ParseParams(pol.CarbonDelay); err != nil {
			add("--carbon-delay", fmt.Errorf("--carbon-delay %v", err))
		}
		switch {
		case p.Carbon == "":
			add("--carbon-delay", fmt.Errorf("--carbon-delay: %w", carbon.ErrNoSignal))
		case len(p.Partitions) > 0:
			add("--carbon-delay", errors.New("--carbon-delay does not go with partitions (yet)"))
		}
		if qp, err := LookupTracePolicy(pol.Name); err == nil && qp.Model != registry.ModelCluster {
			add("--carbon-delay", fmt.Errorf("--carbon-delay wraps a queue policy of the cluster model, not %s (%s)", qp.Name, qp.Model))
		}
	}
	return errs
}

// carbonSpec is the delay layer a run puts around its policy.
type carbonSpec struct {
	sig *signal.Signal
	p   carbon.Params
}

// carbonLayer is the run's delay layer (nil without
// PolicySpec.CarbonDelay).
func (s *RunSpec) carbonLayer() (*carbonSpec, error) {
	if s.Policy.CarbonDelay == "" {
		return nil, nil
	}
	p, err := carbon.ParseParams(s.Policy.CarbonDelay)
	if err != nil {
		return nil, err
	}
	sig, err := loadSignal(s.Platform.Carbon, true)
	if err != nil {
		return nil, err
	}
	if sig == nil {
		return nil, carbon.ErrNoSignal
	}
	return &carbonSpec{sig: sig, p: p}, nil
}

// CarbonDelayInfo is summary.json's energy.carbon_delay: what the delay
// layer did.
type CarbonDelayInfo struct {
	MaxDelayS    float64 `json:"max_delay_s"`
	MaxEstimateS float64 `json:"max_estimate_s,omitempty"` // 0: every job deferrable
	Deferred     int64   `json:"deferred_jobs"`            // jobs held at submission
	HeldS        float64 `json:"held_s"`                   // the time they were held, summed
}

// signalEnergy fills the energy section's carbon and cost.
func signalEnergy(in *EnergyInfo, r energy.Result, carbonOn, priceOn bool, d delayCounts) {
	if carbonOn {
		in.CarbonKg, in.WorkCarbonK = &r.CarbonKg, &r.WorkCarbonKg
	}
	if priceOn {
		in.Cost = &r.Cost
	}
	if d != nil {
		p := d.Params()
		in.CarbonDelay = &CarbonDelayInfo{MaxDelayS: p.MaxDelay, MaxEstimateS: p.MaxEstimate, Deferred: d.Deferred(), HeldS: d.HeldSeconds()}
	}
}

// writeSignalEnergy prints the energy section's carbon, cost and delay
// lines (after the energy line).
func writeSignalEnergy(w io.Writer, e *EnergyInfo) {
	if e.CarbonKg != nil {
		fmt.Fprintf(w, "carbon: %.6g kg CO2 (%.6g kg of it above idle, the work's)\n", *e.CarbonKg, *e.WorkCarbonK)
	}
	if e.Cost != nil {
		fmt.Fprintf(w, "cost: %.6g\n", *e.Cost)
	}
	if d := e.CarbonDelay; d != nil {
		fmt.Fprintf(w, "carbon-aware delay (at most %g s", d.MaxDelayS)
		if d.MaxEstimateS > 0 {
			fmt.Fprintf(w, ", jobs of estimate up to %g s", d.MaxEstimateS)
		}
		fmt.Fprintf(w, "): %d jobs held, %.6g s in all\n", d.Deferred, d.HeldS)
	}
}
