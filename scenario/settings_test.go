package scenario

import (
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/policy/option"
)

// The table's invariants: unique keys, each in its section; defaults
// valid under their own declaration and inside their ranges; a check of
// its own accepts exactly the range; key positions unique per model and
// only for models that read the setting.
func TestSettingsTable(t *testing.T) {
	seen := map[string]bool{}
	at := map[string]map[int]string{}
	for _, st := range settingsTable() {
		if seen[st.Key] {
			t.Errorf("%s: twice in the table", st.Key)
		}
		seen[st.Key] = true
		if st.registry {
			if f := fieldOf(st.Key); f == nil || st.Decl.Type != 0 || st.bind != nil || st.key.at != nil {
				t.Errorf("%s: a registry entry with declarations of its own, or no registry field", st.Key)
			}
			continue
		}
		if len(st.models) == 0 {
			t.Errorf("%s: no models", st.Key)
		}
		section, key := "", st.Key
		if i := strings.LastIndexByte(st.Key, '.'); i >= 0 {
			section, key = st.Key[:i], st.Key[i+1:]
		}
		if !strings.HasPrefix(section, "platform.sites[") && !has(sectionKeys(section), key) {
			t.Errorf("%s: not a key of section %q (sections)", st.Key, section)
		}
		if st.hand != (fieldOf(st.Key) == nil) {
			t.Errorf("%s: hand %v, schema field %v", st.Key, st.hand, fieldOf(st.Key) != nil)
		}
		if st.hand && !strings.HasPrefix(st.Key, "platform.sites[") && !slices.Equal(specials[st.Key], st.models) {
			t.Errorf("%s: decoded by hand for %v, special key of %v", st.Key, st.models, specials[st.Key])
		}
		if st.Default != "" {
			v, err := st.Decl.Parse(st.Default)
			switch {
			case err != nil:
				t.Errorf("%s: default %q: %v", st.Key, st.Default, err)
			case st.Type == option.Int && !st.unsigned || st.Type == option.Float || st.Type == option.Fraction:
				if !st.Range.Contains(v.Float) {
					t.Errorf("%s: default %s outside %s", st.Key, st.Default, st.Range)
				}
			}
		}
		if st.check != nil {
			checkAgreesWithRange(t, st)
		}
		for model, pos := range st.key.at {
			if !has(st.models, model) {
				t.Errorf("%s: a key part of model %s, which does not read it", st.Key, model)
			}
			if other, dup := at[model][pos]; dup {
				t.Errorf("%s and %s: both at %d in %s keys", st.Key, other, pos, model)
			}
			if at[model] == nil {
				at[model] = map[int]string{}
			}
			at[model][pos] = st.Key
		}
		if (st.key.join != "") && st.key.name != "" {
			t.Errorf("%s: a named key part with a join", st.Key)
		}
	}
	for model, parts := range registryKeyParts {
		for _, p := range parts {
			if other, dup := at[model][p.at]; dup {
				t.Errorf("%s and %s: both at %d in %s keys", p.path, other, p.at, model)
			}
		}
	}
	for _, path := range []string{"seed", "workload.mean_interarrival", "platform.sites", "workload.bm_est"} {
		if !seen[path] {
			t.Errorf("%s: not in the table", path)
		}
	}
}

// checkAgreesWithRange probes a setting's own check at and around the
// bounds of its range: it accepts exactly what the range contains.
func checkAgreesWithRange(t *testing.T, st *settingDecl) {
	t.Helper()
	r := st.Range
	probes := []float64{-1, 0, 0.5, 1, 2, r.Min - 1, r.Min, r.Max, r.Max + 1, r.Max * 2,
		math.Nextafter(r.Min, math.Inf(-1)), math.Nextafter(r.Min, math.Inf(1)), math.Nextafter(r.Max, math.Inf(1))}
	for _, x := range probes {
		if ok := st.check(x) == ""; ok != r.Contains(x) {
			t.Errorf("%s at %g: check accepts %v, range %s contains %v", st.Key, x, ok, r, r.Contains(x))
		}
	}
}

// roundTrip is a minimal valid file of a model, as sections of flow
// mappings; with adds or replaces settings (a value "" deletes one).
type roundTrip map[string]string

var roundTripBases = map[string]roundTrip{
	"cluster-trace": {"model": "cluster", "workload.trace": "t.swf", "policy.queue": "easy"},
	"cluster-synth": {"model": "cluster", "stop.completed": "100", "platform.procs": "8", "workload.mean_interarrival": "1", "policy.queue": "easy"},
	mG: {"model": "grid", "stop.completed": "100", "platform.sites": "2", "platform.procs_per_site": "4", "workload.mean_interarrival": "1",
		"policy.grid": "random", "policy.local": "sq"},
	mN: {"model": "gang", "stop.completed": "100", "platform.sites": "2", "platform.procs_per_site": "16", "workload.mean_interarrival": "1",
		"workload.gang_mean_interarrival": "2"},
	mH: {"model": "hetero", "stop.completed": "100", "workload.mean_interarrival": "1", "policy.queue": "easy"},
}

// roundTripNeeds are the other settings a setting needs to be read (its
// controlling settings) or to be valid with the others' defaults.
var roundTripNeeds = map[string]roundTrip{
	"workload.predictor":      {"workload.estimate": "predict"},
	"workload.correction":     {"workload.estimate": "predict"},
	"workload.model":          {"workload.mean_interarrival": ""},
	"platform.on_failure":     {"platform.events": "e.json"},
	"platform.failures.mtbf":  {"platform.failures.mttr": "5"},
	"platform.failures.mttr":  {"platform.failures.mtbf": "5"},
	"platform.failures.group": {"platform.failures.mtbf": "5", "platform.failures.mttr": "5"},
	"platform.procs_per_site": {"platform.sites": "2"},
	"platform.carbon":         {"platform.power": "1:2"},
	"platform.sleep_after":    {"platform.power": "1:2:0:1:1:1:1"},
	"platform.price":          {"platform.power": "1:2"},
	"platform.power_cap":      {"platform.power": "1:2"},
}

// roundTripValues are the two values a setting takes where the generic
// choice (settingValues) does not fit: texts of their own syntax, and
// bounds the defaults of other settings constrain.
var roundTripValues = map[string][2]string{
	"workload.trace":          {"u.swf", "v.swf"},
	"platform.events":         {"e.json", "f.json"},
	"workload.predictor":      {"avg:3", "avg:4"},
	"workload.estimated_max":  {"4000", "5000"},
	"platform.speed_max":      {"700", "800"},
	"platform.cpus_max":       {"12", "14"},
	"platform.procs_per_site": {"32", "16"},
	"platform.power":          {"95:190.74", "10:20"},
	"platform.sleep_after":    {"600", "60:keep=2"},
	"platform.power_cap":      {"15000", "15000@0-3600"},
}

// yaml writes a round-trip file: each path's value nested in flow
// mappings by its sections.
func (rt roundTrip) yaml() string {
	type node map[string]any
	root := node{}
	for path, v := range rt {
		if v == "" {
			continue
		}
		parts := strings.Split(path, ".")
		n := root
		for _, p := range parts[:len(parts)-1] {
			if n[p] == nil {
				n[p] = node{}
			}
			n = n[p].(node)
		}
		n[parts[len(parts)-1]] = v
	}
	var write func(n node) string
	write = func(n node) string {
		var keys []string
		for k := range n {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var out []string
		for _, k := range keys {
			if sub, ok := n[k].(node); ok {
				out = append(out, k+": "+write(sub))
			} else {
				out = append(out, k+": "+n[k].(string))
			}
		}
		return "{" + strings.Join(out, ", ") + "}"
	}
	return write(root)
}

// settingValues are two distinct valid values of the setting, the
// first other than its default.
func settingValues(st *settingDecl) (string, string) {
	if v, ok := roundTripValues[st.Key]; ok {
		return v[0], v[1]
	}
	var cands []string
	switch st.Type {
	case option.Enum:
		cands = append(slices.Clone(st.Values[1:]), st.Values[0])
	case option.Bool:
		cands = []string{"true", "false"}
	case option.Text:
		cands = []string{"x", "y"}
	default:
		for _, x := range []float64{2, 3, 1, st.Range.Min, st.Range.Max} {
			if text := strconv.FormatFloat(x, 'g', -1, 64); st.Range.Contains(x) && !slices.Contains(cands, text) {
				cands = append(cands, text)
			}
		}
	}
	var out []string
	for _, c := range cands {
		if len(out) == 0 && c == st.Default {
			continue
		}
		out = append(out, c)
	}
	if len(out) < 2 {
		return "", ""
	}
	return out[0], out[1]
}

// Every setting of the table round-trips: a file that sets it away from
// its default parses, the point holds the value where the setting lives,
// and the key writes it where its key part says (name=value, or the
// value appended after its join); two values of a setting that changes
// results give two keys, and two of workers, which does not, one.
func TestSettingsRoundTrip(t *testing.T) {
	checked := 0
	for _, st := range settingsTable() {
		if st.hand || st.registry {
			continue
		}
		for _, model := range st.models {
			base := model
			if model == mC {
				base = "cluster-trace"
				if st.synthOnly || st.Key == "stop.completed" {
					base = "cluster-synth"
				}
			}
			with, other := roundTrip{}, roundTrip{}
			for _, rt := range []roundTrip{roundTripBases[base], roundTripNeeds[st.Key]} {
				for k, v := range rt {
					with[k], other[k] = v, v
				}
			}
			with[st.Key], other[st.Key] = settingValues(st)
			want, err := st.Decl.Parse(with[st.Key])
			if err != nil {
				t.Errorf("%s (%s): test value %q: %v", st.Key, model, with[st.Key], err)
				continue
			}
			s, ok := roundTripParse(t, st.Key, with)
			s0, ok0 := roundTripParse(t, st.Key, other)
			if !ok || !ok0 {
				continue
			}
			checked++
			if got := valueText(&s, st.Key); st.bind != nil && got != want.Text {
				t.Errorf("%s (%s): the point holds %q, want %q", st.Key, model, got, want.Text)
			}
			key := s.Key()
			switch {
			case st.Key == "workers":
				if key != s0.Key() {
					t.Errorf("workers changes the key: %s, %s", key, s0.Key())
				}
				continue
			case key == s0.Key():
				t.Errorf("%s (%s): %s and %s give one key %s", st.Key, model, with[st.Key], other[st.Key], key)
			}
			text, _ := keyText(&s, st.Key)
			part := st.key.join + text
			if st.key.name != "" {
				part = "_" + st.key.name + "=" + text
			}
			if _, inKey := st.key.at[model]; inKey && !strings.Contains(key, part) {
				t.Errorf("%s (%s): key %s lacks %q", st.Key, model, key, part)
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d settings round-tripped", checked)
	}
}

func roundTripParse(t *testing.T, path string, rt roundTrip) (Scenario, bool) {
	t.Helper()
	src := rt.yaml()
	pts, err := Parse("t.yaml", []byte(src))
	if err != nil || len(pts) != 1 {
		t.Errorf("%s: %s: %v", path, src, err)
		return Scenario{}, false
	}
	return pts[0].Scenario, true
}

// docs/scenarios.md's key reference tables are the declarations'.
func TestDocsSettingsTables(t *testing.T) {
	b, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	got, err := WriteDocTables(b)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(b) {
		t.Errorf("docs/scenarios.md's key reference tables are not the declarations': run go generate ./scenario/")
	}
	for _, section := range docSections {
		if rows := strings.Count(docTable(section), "\n") - 2; rows < 8 {
			t.Errorf("section %s: %d rows", section, rows)
		}
	}
	// every key of the policy section has a row
	doc := string(got)
	for _, k := range policyKeys() {
		if !strings.Contains(doc, "| `policy."+k+"` |") {
			t.Errorf("no row for policy.%s", k)
		}
	}
	if _, err := WriteDocTables([]byte("no markers")); err == nil || !strings.Contains(err.Error(), "settings table top: begin") {
		t.Errorf("a page without markers: %v", err)
	}
}

// A row's derived columns, by hand: a trace-only enum of the cluster, a
// hetero generator setting, a policy option read by one policy.
func TestDocRows(t *testing.T) {
	rows := map[string]docRow{}
	for _, section := range docSections {
		for _, r := range docRows(section) {
			rows[r.key] = r
		}
	}
	for _, c := range []docRow{
		{key: "workload.resample", typ: "name", def: "`none`", models: "cluster with a trace", sweep: "yes"},
		{key: "platform.machines", typ: "integer", def: "150", allowed: "1..65536; the number of generated machines", models: "hetero without `sites`", sweep: "yes"},
		{key: "policy.depth", typ: "integer", def: "0", models: "cluster, queue `backfill`", sweep: "yes"},
		{key: "workers", typ: "integer", def: "0 (all cores)", allowed: ">= 0; parallel replications, never changes results", models: "all", sweep: "no"},
		{key: "policy.allocation_interval", typ: "number", def: "required", allowed: "> 0; the allocation interval A_I: held jobs leave at its multiples",
			models: "grid, policy.grid `deferred` or `hybrid`", sweep: "yes"},
	} {
		got := rows[c.key]
		if c.allowed == "" {
			got.allowed = ""
		}
		if got != c {
			t.Errorf("row %s:\n%+v\nwant\n%+v", c.key, got, c)
		}
	}
	if got := docNum(1e12) + " " + docNum(1e-6) + " " + docNum(4294967295) + " " + docNum(1e8) + " " + docNum(65536); got != "1e12 1e-6 4294967295 1e8 65536" {
		t.Errorf("docNum: %s", got)
	}
	dep := dependentTable()
	for _, want := range []string{
		"| `policy.window_jobs` | `policy.queue` is `matrix` and `policy.window` is `fixed` (cluster) |\n",
		"| `workload.gang_min`, `workload.gang_max` | `workload.gang_sizes` is `uniform` |\n",
		"| `workload.split_overhead` | `policy.approach` is `2` |\n",
	} {
		if !strings.Contains(dep, want) {
			t.Errorf("the dependent settings' table lacks %q", want)
		}
	}
	if strings.Contains(dep, "`policy.queue` |") || strings.Contains(dep, "`seed`") {
		t.Errorf("the dependent settings' table lists settings every point reads:\n%s", dep)
	}
	if rows["policy.queue"].allowed == "" || !strings.Contains(rows["policy.queue"].allowed, "hetero: `fcfs`") {
		t.Errorf("policy.queue: %q", rows["policy.queue"].allowed)
	}
}

// The table's readWhen are the dependencies of the first releases (a
// copy of the table schema.go held), and each one works through a file:
// the setting given while its controlling setting takes a value that
// does not read it is refused, naming both.
func TestSettingsReadWhen(t *testing.T) {
	pinned := []dep{
		{model: mN, key: "workload.gang_min", on: "workload.gang_sizes", when: []string{"uniform"}},
		{model: mN, key: "workload.gang_max", on: "workload.gang_sizes", when: []string{"uniform"}},
		{model: mC, key: "workload.mean_interarrival", on: "workload.model", when: []string{Poisson}},
		{model: mC, key: "workload.mean_service", on: "workload.model", when: []string{Poisson}},
		{model: mC, key: "workload.predictor", on: "workload.estimate", when: []string{Predict}},
		{model: mC, key: "workload.correction", on: "workload.estimate", when: []string{Predict}},
		{model: mH, key: "workload.deadline_factor_min", on: "workload.deadline", when: []string{"factor", "fastest"}},
		{model: mH, key: "workload.deadline_factor_max", on: "workload.deadline", when: []string{"factor", "fastest"}},
	}
	got := writtenDeps()
	if len(got) != len(pinned) {
		t.Errorf("%d dependencies, pinned %d: %+v", len(got), len(pinned), got)
	}
	for _, p := range pinned {
		if !slices.ContainsFunc(got, func(d dep) bool {
			return d.model == p.model && d.key == p.key && d.on == p.on && slices.Equal(d.when, p.when) && !d.required
		}) {
			t.Errorf("no dependency %+v", p)
		}
	}
	for _, d := range got {
		base := d.model
		if d.model == mC {
			base = "cluster-trace"
			if d.on == "workload.model" {
				base = "cluster-synth"
			}
		}
		rt := roundTrip{}
		for k, v := range roundTripBases[base] {
			rt[k] = v
		}
		st := settingByPath()[d.key]
		rt[d.key], _ = settingValues(st)
		other := ""
		for _, v := range settingByPath()[d.on].Values {
			if !has(d.when, v) {
				other = v
				break
			}
		}
		rt[d.on] = other
		_, err := Parse("t.yaml", []byte(rt.yaml()))
		want := d.key + ": only used with " + d.on + " " + orList(d.when) + " (" + d.on + " is " + other + ")"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", rt.yaml(), err, want)
		}
	}
}
