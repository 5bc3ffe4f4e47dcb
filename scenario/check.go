package scenario

import (
	"strings"

	"github.com/schedlab/schedlab/platform/powercap"
	"github.com/schedlab/schedlab/registry"
)

// present reports whether the file gives the key at path (valid or not).
func (d *decoder) present(path string) bool {
	_, ok := d.keys[path]
	return ok
}

// missing reports whether the file lacks the key at path, leaving out
// keys inside a section that was reported as malformed.
func (d *decoder) missing(path string) bool {
	if d.present(path) {
		return false
	}
	for p := path; ; {
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			return true
		}
		p = p[:i]
		if d.broken[p] {
			return false
		}
	}
}

// where is the position for a problem about a setting the file does not
// give: its closest enclosing key that is there, else the first key of the
// file.
func (d *decoder) where(path string) pos {
	for p := path; p != ""; {
		if at, ok := d.keys[p]; ok {
			return at
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return d.docStart
}

// orList writes "a", "a or b", "a, b or c".
func orList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// checkStatic checks what does not depend on the point of a sweep: the
// keys each model requires, trace versus synthetic workloads, the site
// forms and the settings that only some policies read.
// The model is known and valid.
func (d *decoder) checkStatic() {
	m := d.model
	for _, p := range required()[m] {
		if p == "stop.completed" && d.stop != nil {
			continue // stop: trace, reported below
		}
		if d.missing(p) {
			d.add(d.where(p), p, "required by model %s", m)
		}
	}
	if m == registry.ModelCluster {
		d.checkAvail()
		d.checkPartitions()
		d.checkNodes()
		d.checkCluster()
	} else if d.stop != nil {
		d.add(d.stop.at, "stop", `"trace" is only for a cluster running a trace; model %s runs until stop.completed jobs complete`, m)
	}
	if has(siteModels, m) {
		if d.present("platform.procs_per_site") && (d.sites == sitesList || d.sites == sitesLists) {
			d.add(d.keys["platform.procs_per_site"], "platform.procs_per_site", "only with sites: N (a number of identical sites); a site list gives each site's procs")
		}
		if m == registry.ModelHetero && d.present("platform.sites") {
			for _, k := range knownKeys("platform", m) {
				if k = join("platform", k); heteroGenerator(k) && d.present(k) {
					d.add(d.keys[k], k, "not with platform.sites: the machines are given (sites) or generated (machines, cpus_min, ...), not both")
				}
			}
		}
		if d.sites == sitesCount && d.missing("platform.procs_per_site") {
			d.add(d.keys["platform.sites"], "platform.procs_per_site", "required with sites: N")
		}
	}
	d.checkDeps()
	if mm, err := registry.LookupModel(m); err == nil {
		for i, name := range d.metrics {
			if !mm.HasMetric(name) {
				known := strings.Join(mm.Metrics, ", ")
				for _, sm := range mm.SiteMetrics {
					known += ", site<i>_" + sm
				}
				for _, um := range mm.UserMetrics {
					known += ", user<u>_" + um
				}
				if len(mm.Requestable) > 0 {
					known += "; when asked for: " + strings.Join(mm.Requestable, ", ")
				}
				d.add(d.metricAt[i], "metrics", "model %s reports no metric %q (its metrics: %s)", m, name, known)
			} else if md, ok := registry.LookupMetric(m, name); ok && md.Requires != "" && d.missing(md.Requires) {
				d.add(d.metricAt[i], "metrics", "metric %s needs %s (docs/energy.md)", name, md.Requires)
			}
		}
	}
}

func (d *decoder) checkCluster() {
	for _, k := range []string{"platform.carbon", "platform.price"} { // a signal weighs the power model's energy
		if d.present(k) && d.missing("platform.power") {
			d.add(d.keys[k], k, "needs platform.power (a power model: the signal weighs the machine's energy, docs/energy.md)")
		}
	}
	if d.present("platform.sleep_after") {
		switch {
		case d.missing("platform.power"):
			d.add(d.keys["platform.sleep_after"], "platform.sleep_after", "needs platform.power with power states (IDLE_W:COMPUTE_W:OFF_W:ON_S:ON_J:OFF_S:OFF_J, docs/energy.md)")
		case d.missing("workload.trace"):
			d.add(d.keys["platform.sleep_after"], "platform.sleep_after", "needs a trace workload (workload.trace): the sleeper does not run on synthetic jobs yet")
		}
	}
	d.checkPowerCap()
	if s := d.set["platform.sleep_after"]; s != nil {
		sleeps := false
		for _, v := range s.vals {
			if v.canon == SleepNone {
				continue
			}
			sleeps = true
			if err := registry.CheckSleep(v.canon); err != nil {
				d.add(v.at, "platform.sleep_after", "%v", err)
			}
		}
		if p := d.set["platform.power"]; p != nil && sleeps {
			for _, pv := range p.vals {
				if registry.CheckPower(pv.canon) == nil && !registry.PowerStates(pv.canon) {
					d.add(pv.at, "platform.power", "%q has no power states, which platform.sleep_after needs (IDLE_W:COMPUTE_W:OFF_W:ON_S:ON_J:OFF_S:OFF_J, docs/energy.md)", pv.canon)
				}
			}
		}
	}
	if s := d.set["platform.power"]; s != nil {
		for _, v := range s.vals {
			if err := registry.CheckPower(v.canon); err != nil {
				d.add(v.at, "platform.power", "%v", err)
			}
		}
	}
	if s := d.set["workload.predictor"]; s != nil {
		for _, v := range s.vals {
			if err := registry.CheckPredictor(v.canon); err != nil {
				d.add(v.at, "workload.predictor", "%v", err)
			}
		}
	}
	trace := d.present("workload.trace")
	model := d.present("workload.model")
	synth := d.present("workload.mean_interarrival") || model
	switch {
	case trace && synth:
		for _, k := range []string{"workload.mean_interarrival", "workload.model"} {
			if d.present(k) {
				d.add(d.keys[k], k, "not with workload.trace: a cluster runs a trace or a synthetic workload, not both")
			}
		}
		return
	case !trace && !synth && d.missing("workload.trace") && d.missing("workload.mean_interarrival") && d.missing("workload.model"):
		d.add(d.where("workload.trace"), "workload.trace", "required by model cluster (or workload.mean_interarrival, for synthetic one-CPU jobs, or workload.model: lublin)")
		return
	}
	if synth {
		// The lublin model's jobs have requests: it reads the estimate
		// model and the overrun rule (checkDeps cannot say so: with a
		// trace, workload.model is not read at all).
		for _, k := range []string{"workload.estimate", "workload.on_overrun", "workload.clamp", "workload.resample", "workload.jobs"} {
			if !d.present(k) || model && fieldOf(k).requests {
				continue
			}
			if fieldOf(k).requests {
				d.add(d.keys[k], k, "only with workload.trace or a workload.model whose jobs have requests, e.g. lublin (Poisson jobs have exact estimates and no time limit)")
			} else {
				d.add(d.keys[k], k, "only with workload.trace")
			}
		}
		if d.missing("platform.procs") && d.nodes == nil {
			d.add(d.where("platform.procs"), "platform.procs", "required for a synthetic workload (there is no trace header to take it from), or platform.nodes")
		}
		if d.stop != nil {
			d.add(d.stop.at, "stop", `"trace" needs workload.trace; a synthetic workload runs until stop.completed jobs complete`)
		} else if d.missing("stop.completed") {
			d.add(d.where("stop.completed"), "stop.completed", "required for a synthetic workload")
		}
		for _, wm := range registry.WorkloadModels() {
			for _, ex := range wm.Exclusive {
				a, b := "workload."+ex[0], "workload."+ex[1]
				if d.present(a) && d.present(b) {
					d.add(d.keys[b], b, "not with %s: %s", a, ex[2])
				}
			}
		}
		if d.missing("workload.mean_interarrival") && d.poissonPossible() {
			d.add(d.where("workload.mean_interarrival"), "workload.mean_interarrival", "required by the Poisson workload (workload.model poisson, the default)")
		}
		return
	}
	synthKeys := []string{"workload.mean_service"}
	for _, wm := range registry.WorkloadModels() {
		for _, o := range wm.Options {
			synthKeys = append(synthKeys, o.Key)
		}
	}
	for _, k := range synthKeys {
		if d.present(k) {
			d.add(d.keys[k], k, "only with a synthetic workload (a trace gives the jobs)")
		}
	}
	if d.present("stop") && d.stop == nil && !d.present("stop.completed") {
		d.add(d.keys["stop"], "stop.completed", "missing (or write stop: trace to run the whole trace)")
	}
}

// poissonPossible reports whether some point of the file may use the
// Poisson workload: workload.model is absent, or one of its values is
// poisson.
func (d *decoder) poissonPossible() bool {
	s := d.set["workload.model"]
	if s == nil {
		return !d.present("workload.model")
	}
	for _, v := range s.vals {
		if v.canon == Poisson {
			return true
		}
	}
	return false
}

// checkDeps reports settings no value of their controlling setting uses,
// and required settings a controlling value needs.
func (d *decoder) checkDeps() {
	for _, dp := range schemaDeps() {
		if dp.model != d.model {
			continue
		}
		var ons []val
		isDefault := false
		if s := d.set[dp.on]; s != nil {
			ons = s.vals
		} else if d.present(dp.on) {
			continue // invalid, reported
		} else if t := defaultText(dp.on); t != "" {
			ons, isDefault = []val{{text: t, canon: t}}, true
		} else {
			continue // missing, reported
		}
		used := false
		var texts []string
		for _, v := range ons {
			used = used || has(dp.when, v.canon)
			texts = append(texts, v.text)
		}
		if d.present(dp.key) && !used {
			verb := "is " + texts[0]
			if len(texts) > 1 {
				verb = "takes " + strings.Join(texts, ", ")
			}
			if isDefault {
				verb += ", the default"
			}
			d.add(d.keys[dp.key], dp.key, "only used with %s %s (%s %s)", dp.on, orList(dp.when), dp.on, verb)
		}
		if dp.required && d.missing(dp.key) {
			for _, v := range ons {
				if has(dp.when, v.canon) {
					d.add(v.at, dp.key, "required with %s %s", dp.on, v.text)
				}
			}
		}
	}
}

// checkPowerCap checks platform.power_cap: it needs the power model and
// a trace workload, and each value must read (powercap.Parse).
func (d *decoder) checkPowerCap() {
	if d.present("platform.power_cap") {
		switch {
		case d.missing("platform.power"):
			d.add(d.keys["platform.power_cap"], "platform.power_cap", "needs platform.power (a power model: the cap bounds the machine's watts, docs/energy.md)")
		case d.missing("workload.trace"):
			d.add(d.keys["platform.power_cap"], "platform.power_cap", "needs a trace workload (workload.trace): the cap does not run on synthetic jobs yet")
		}
	}
	if s := d.set["platform.power_cap"]; s != nil {
		for _, v := range s.vals {
			if v.canon == CapNone {
				continue
			}
			if _, err := powercap.Parse(v.canon); err != nil {
				d.add(v.at, "platform.power_cap", "%q: %v", v.canon, err)
			}
		}
	}
}
