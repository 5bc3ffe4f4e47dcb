package registry

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

// Every name is listed once: models, kinds within a model, policies within
// a kind, options within a policy.
func TestNamesOnce(t *testing.T) {
	once := func(what string, names []string) {
		t.Helper()
		seen := map[string]bool{}
		for _, n := range names {
			if n == "" {
				t.Errorf("%s: empty name", what)
			}
			if seen[n] {
				t.Errorf("%s: %q listed twice", what, n)
			}
			seen[n] = true
		}
	}
	once("models", ModelNames())
	if want := []string{ModelCluster, ModelGrid, ModelGang, ModelHetero}; !slices.Equal(ModelNames(), want) {
		t.Errorf("models %v, want %v", ModelNames(), want)
	}
	total := 0
	for _, m := range Models() {
		var kinds []string
		for _, k := range m.Kinds {
			kinds = append(kinds, k.Name)
			if k.Model != m.Name || k.Key == "" || k.Noun == "" || k.Title == "" {
				t.Errorf("model %s: kind %+v incomplete", m.Name, k)
			}
			names := Names(m.Name, k.Name)
			once(m.Name+" "+k.Name, names)
			if len(names) == 0 {
				t.Errorf("model %s kind %s: no policies", m.Name, k.Name)
			}
			total += len(names)
			for _, p := range Policies(m.Name, k.Name) {
				if p.Summary == "" {
					t.Errorf("%s %s %s: no summary", m.Name, k.Name, p.Name)
				}
				var opts []string
				for _, o := range p.Options() {
					opts = append(opts, o.Name)
				}
				once(m.Name+" "+k.Name+" "+p.Name+" options", opts)
			}
		}
		once(m.Name+" kinds", kinds)
	}
	if total != len(policies()) {
		t.Errorf("%d policies reachable by model and kind, %d registered", total, len(policies()))
	}
}

// The lists the scenario files and the command line use hold the papers'
// policies in this order (a policy added later may come anywhere).
func TestNames(t *testing.T) {
	for _, c := range []struct {
		model, kind string
		want        []string
	}{
		{ModelCluster, KindQueue, []string{"fcfs", "firstfit", "easy", "conservative", "backfill", "matrix", "jrb", "external"}},
		{ModelGrid, KindGrid, []string{"random", "realtime", "deferred", "hybrid"}},
		{ModelGrid, KindLocal, []string{"random", "sq", "2rsq"}},
		{ModelGang, KindApproach, []string{"1", "2"}},
		{ModelHetero, KindQueue, []string{"fcfs", "easy", "flexible", "eg-edf", "tabu", "external"}},
	} {
		got := Names(c.model, c.kind)
		i := 0
		for _, n := range got {
			if i < len(c.want) && n == c.want[i] {
				i++
			}
		}
		if i < len(c.want) {
			t.Errorf("%s %s: %v, want %v among them in this order", c.model, c.kind, got, c.want)
		}
	}
}

// defaults returns the option values a policy runs with by default; a
// required option takes a value inside its range.
func defaults(t *testing.T, p Entry) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, o := range p.Options() {
		switch {
		case o.Type == TypeEnum || o.Type == TypeBool || o.Type == TypeText:
			continue
		case o.Required():
			x := o.Range.Min + 1
			if !math.IsInf(o.Range.Max, 1) {
				x = (o.Range.Min + o.Range.Max) / 2
			}
			out[o.Name] = x
		default:
			x, err := strconv.ParseFloat(o.Default, 64)
			if err != nil {
				t.Fatalf("%s %s: default %q of %s: %v", p.Kind, p.Name, o.Default, o.Name, err)
			}
			out[o.Name] = x
		}
	}
	return out
}

// Every policy of an implemented model builds through the one factory
// with its defaults (required options inside their range), and names
// itself after its entry.
func TestEveryPolicyBuilds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, m := range Models() {
		for _, k := range m.Kinds {
			for _, p := range Policies(m.Name, k.Name) {
				given := map[string]string{}
				if p.Name == "external" {
					// a Text option with no usable default: the
					// process is never started by building the policy
					given["command"] = "true"
				}
				if p.Name == "python" {
					given["class"] = "mymod:MyPolicy" // likewise: no process starts
				}
				for name, x := range defaults(t, p) {
					if o, _ := p.Option(name); o.Required() {
						given[name] = strconv.FormatFloat(x, 'g', -1, 64)
					}
				}
				plat := platform.MustCluster(8)
				if m.Name == ModelHetero {
					var err error
					if plat, err = platform.New([]platform.Machine{{CPUs: 4, Speed: 200}, {CPUs: 8, Speed: 400}}); err != nil {
						t.Fatal(err)
					}
				}
				env := policy.Env{Platform: plat, Rand: r, Seed: 1}
				if p.Traits.NodesOnly { // slurm: on nodes only
					g, err := nodes.ParseGroup("n[1-2]:cores=4")
					if err != nil {
						t.Fatal(err)
					}
					ns, err := nodes.New([]nodes.NodeGroup{g})
					if err != nil {
						t.Fatal(err)
					}
					env.Nodes = &ns
					if _, err := p.Build(policy.Env{Platform: plat, Rand: r, Seed: 1}, given); err == nil || !strings.Contains(err.Error(), "platform of nodes") {
						t.Errorf("%s on a pool of CPUs: %v, want refused", p.Name, err)
					}
				}
				b, err := p.Build(env, given)
				if err != nil {
					t.Errorf("%s %s %s with %v: %v", m.Name, k.Name, p.Name, given, err)
					continue
				}
				var name string
				switch k.Name {
				case KindQueue:
					if b.Nodes != nil {
						name = b.Nodes.Name()
					} else {
						name = b.Queue.Name()
					}
				case KindGrid:
					name = b.Grid.Name()
				case KindLocal:
					name = b.Local.Name()
				case KindApproach:
					name = b.Gang.Name()
				default:
					t.Fatalf("kind %s: no builder in this test", k.Name)
				}
				want := map[string]string{"backfill": "backfill-unlimited", "1": "approach1", "2": "approach2"}[p.Name]
				if want == "" {
					want = p.Name
				}
				if name != want {
					t.Errorf("%s %s %s builds a policy named %q, want %q", m.Name, k.Name, p.Name, name, want)
				}
			}
		}
	}
}

// A bad option value is an error naming the policy, the option and the
// rule; an option of another policy is refused.
func TestBuildChecksOptions(t *testing.T) {
	p, err := Lookup(ModelCluster, KindQueue, "easy")
	if err != nil {
		t.Fatal(err)
	}
	env := policy.Env{Platform: platform.MustCluster(8)}
	for _, c := range []struct {
		given map[string]string
		want  string
	}{
		{map[string]string{"order": "lifo"}, `policy easy: option order: "lifo" is not one of fcfs, sjf, multifactor`},
		{map[string]string{"depth": "2"}, `policy easy: option depth: not an option of this policy`},
	} {
		if _, err := p.Build(env, c.given); err == nil || err.Error() != c.want {
			t.Errorf("Build(%v): err %v, want %q", c.given, err, c.want)
		}
	}
	g, _ := Lookup(ModelGrid, KindGrid, "deferred")
	if _, err := g.Build(policy.Env{}, nil); err == nil || !strings.Contains(err.Error(), "grid scheduler deferred: option allocation_interval: required") {
		t.Errorf("deferred without its interval: %v", err)
	}
}

// Every default is a valid value of its option.
func TestDefaultsValid(t *testing.T) {
	check := func(where string, o Option) {
		t.Helper()
		if o.Key == "" || o.Doc == "" || o.Type == 0 {
			t.Errorf("%s: option %+v incomplete", where, o)
		}
		if o.Required() {
			return
		}
		switch o.Type {
		case TypeEnum:
			if len(o.Values) == 0 || o.Values[0] != o.Default {
				t.Errorf("%s: %s default %q is not its first value %v", where, o.Name, o.Default, o.Values)
			}
		case TypeBool:
			if _, err := strconv.ParseBool(o.Default); err != nil {
				t.Errorf("%s: %s default %q", where, o.Name, o.Default)
			}
		case TypeText:
			// free text the policy parses: "" is its own default
		default:
			x, err := strconv.ParseFloat(o.Default, 64)
			if err != nil || !o.Range.Contains(x) {
				t.Errorf("%s: %s default %q outside %s", where, o.Name, o.Default, o.Range)
			}
		}
	}
	for _, m := range Models() {
		for _, o := range m.Options {
			check(m.Name, o)
		}
		for _, k := range m.Kinds {
			if k.Default != "" && !slices.Contains(Names(m.Name, k.Name), k.Default) {
				t.Errorf("%s %s: default %q is not a name", m.Name, k.Name, k.Default)
			}
			for _, p := range Policies(m.Name, k.Name) {
				for _, o := range p.Options() {
					check(m.Name+" "+p.Name, o)
				}
			}
		}
	}
}

// Unknown names give the typed error naming the known ones.
func TestUnknownNames(t *testing.T) {
	for _, c := range []struct {
		model, kind, name string
		what              string
		known             []string
		msg               string
	}{
		{ModelCluster, KindQueue, "nope", "policy", Names(ModelCluster, KindQueue),
			`unknown policy "nope" (known: ` + strings.Join(Names(ModelCluster, KindQueue), ", ") + `)`},
		{ModelGrid, KindGrid, "fastest", "grid scheduler", Names(ModelGrid, KindGrid),
			`unknown grid scheduler "fastest" (known: ` + strings.Join(Names(ModelGrid, KindGrid), ", ") + `)`},
		{ModelGrid, KindLocal, "fastest", "local scheduler", Names(ModelGrid, KindLocal),
			`unknown local scheduler "fastest" (known: ` + strings.Join(Names(ModelGrid, KindLocal), ", ") + `)`},
		{ModelGang, KindApproach, "3", "gang approach", []string{"1", "2"}, `unknown gang approach "3" (known: 1, 2)`},
		{"mesh", KindQueue, "fcfs", "model", ModelNames(), `unknown model "mesh" (known: cluster, grid, gang, hetero)`},
		{ModelGrid, KindQueue, "fcfs", "policy kind of model grid", []string{KindGrid, KindLocal},
			`unknown policy kind of model grid "queue" (known: grid, local)`},
	} {
		_, err := Lookup(c.model, c.kind, c.name)
		var une *UnknownNameError
		if !errors.As(err, &une) {
			t.Errorf("Lookup(%s, %s, %s): err %v, want an *UnknownNameError", c.model, c.kind, c.name, err)
			continue
		}
		if une.Kind != c.what || !slices.Equal(une.Known, c.known) || err.Error() != c.msg {
			t.Errorf("Lookup(%s, %s, %s) = %#v (%q), want kind %q known %v: %q", c.model, c.kind, c.name, une, err, c.what, c.known, c.msg)
		}
	}
	if _, _, err := NewGridPair("random", "fastest", nil, nil, nil); !errors.As(err, new(*UnknownNameError)) {
		t.Errorf("NewGridPair with an unknown local scheduler: %v", err)
	}
}

// What the accessors return is a copy: changing it changes nothing.
func TestImmutable(t *testing.T) {
	ms := Models()
	ms[0].Name = "x"
	ms[0].Kinds[0].Key = "x"
	ps := Policies(ModelCluster, KindQueue)
	ps[0].Name = "x"
	o := ps[0].Options()
	o[0].Values[0] = "x"
	ko := KindOptions(ModelGang, KindApproach)
	ko[1].Values[0] = "x"
	ko[0].Policies[0] = "x"
	again := Models()
	if again[0].Name != ModelCluster || again[0].Kinds[0].Key != "policy.queue" {
		t.Errorf("models changed: %+v", again)
	}
	if p := Policies(ModelCluster, KindQueue)[0]; p.Name != "fcfs" || p.Options()[0].Values[0] != "fcfs" {
		t.Errorf("policies changed: %+v", p)
	}
	if ko := KindOptions(ModelGang, KindApproach); ko[1].Values[0] != "waiting" || ko[0].Policies[0] != "1" {
		t.Errorf("kind options changed: %+v", ko)
	}
}

// KindOptions keeps each policy's order of its options and names the
// policies that take each.
func TestKindOptions(t *testing.T) {
	// Derived from the declarations, for every kind of every model: the
	// options are those its policies declare, each once; each names the
	// policies that declare it, in registry order; every policy's options
	// come in its own order; the values are the widest list declared.
	kinds := 0
	for _, m := range Models() {
		for _, k := range m.Kinds {
			kinds++
			kos := KindOptions(m.Name, k.Name)
			pos := map[string]int{}
			for i, ko := range kos {
				if _, dup := pos[ko.Name]; dup {
					t.Errorf("%s %s: option %s listed twice", m.Name, k.Name, ko.Name)
				}
				pos[ko.Name] = i
			}
			declaring := map[string][]string{}
			widest := map[string]int{}
			for _, p := range Policies(m.Name, k.Name) {
				last := -1
				for _, o := range p.Options() {
					i, ok := pos[o.Name]
					if !ok {
						t.Errorf("%s %s: policy %s's option %s missing", m.Name, k.Name, p.Name, o.Name)
						continue
					}
					if i < last {
						t.Errorf("%s %s: policy %s's option %s listed before the one it follows", m.Name, k.Name, p.Name, o.Name)
					}
					last = i
					declaring[o.Name] = append(declaring[o.Name], p.Name)
					widest[o.Name] = max(widest[o.Name], len(o.Values))
				}
			}
			for _, ko := range kos {
				if !slices.Equal(ko.Policies, declaring[ko.Name]) || len(ko.Values) != widest[ko.Name] {
					t.Errorf("%s %s: option %s taken by %v with %d values, declared by %v, widest %d",
						m.Name, k.Name, ko.Name, ko.Policies, len(ko.Values), declaring[ko.Name], widest[ko.Name])
				}
			}
		}
	}
	if kinds < 4 {
		t.Fatalf("%d kinds of policy in the registry", kinds)
	}
	// The widest value list: fcfs allows two orders, the others three.
	for _, ko := range KindOptions(ModelCluster, KindQueue) {
		if ko.Name == "order" && !slices.Equal(ko.Values, []string{"fcfs", "sjf", "multifactor"}) {
			t.Errorf("order values %v", ko.Values)
		}
	}
	if o, _ := Lookup(ModelCluster, KindQueue, "fcfs"); !slices.Equal(mustOption(t, o, "order").Values, []string{"fcfs", "multifactor"}) || mustOption(t, o, "order").Note == "" {
		t.Errorf("fcfs order option: %+v", mustOption(t, o, "order"))
	}
}

func mustOption(t *testing.T, p Entry, name string) Option {
	t.Helper()
	o, ok := p.Option(name)
	if !ok {
		t.Fatalf("%s has no option %s", p.Name, name)
	}
	return o
}

func TestRange(t *testing.T) {
	for _, c := range []struct {
		r    Range
		in   []float64
		out  []float64
		text string
	}{
		{AtLeast(0), []float64{0, 1e9}, []float64{-1e-9, math.NaN()}, ">= 0"},
		{Above(0), []float64{1e-9, 5}, []float64{0, -1, math.NaN()}, "> 0"},
		{Between(0, 1), []float64{0, 0.5, 1}, []float64{-0.1, 1.1, math.NaN()}, "in [0, 1]"},
	} {
		for _, x := range c.in {
			if !c.r.Contains(x) {
				t.Errorf("%s does not contain %g", c.r, x)
			}
		}
		for _, x := range c.out {
			if c.r.Contains(x) {
				t.Errorf("%s contains %g", c.r, x)
			}
		}
		if c.r.String() != c.text {
			t.Errorf("%+v reads %q, want %q", c.r, c.r, c.text)
		}
	}
}

// Traits: only shortest queue prefers idle processors, only approach 2
// splits gangs.
func TestTraits(t *testing.T) {
	for _, p := range Policies(ModelGrid, KindLocal) {
		if p.Traits.PreferIdle != (p.Name == "sq") {
			t.Errorf("local %s: PreferIdle %v", p.Name, p.Traits.PreferIdle)
		}
	}
	for _, p := range Policies(ModelGang, KindApproach) {
		if p.Traits.SplitsGangs != (p.Name == "2") {
			t.Errorf("approach %s: SplitsGangs %v", p.Name, p.Traits.SplitsGangs)
		}
	}
}

// view is a grid of three sites: site 0 least loaded with no idle
// processor, site 2 most loaded with the only idle one.
type view struct{ sent []int }

func (v *view) Sites() int            { return 3 }
func (v *view) SiteProcs(s int) int   { return 8 }
func (v *view) SiteLoad(s int) int    { return []int{2, 9, 12}[s] }
func (v *view) SiteIdle(s int) int    { return []int{0, 0, 1}[s] }
func (v *view) ProcJobs(s, p int) int { return 1 }
func (v *view) Held() []job.Info      { return nil }
func (v *view) Send(id job.ID, s int) error {
	v.sent = append(v.sent, s)
	return nil
}

// The grid scheduler prefers a site with an idle processor exactly when
// the local scheduler's entry has the PreferIdle trait: real-time with sq
// sends to the idle site 2, with random or 2rsq to the least loaded site 0.
func TestPreferIdleComesFromTheLocalTrait(t *testing.T) {
	for _, local := range Names(ModelGrid, KindLocal) {
		lp, _ := Lookup(ModelGrid, KindLocal, local)
		gs, _, err := NewGridPair("realtime", local, nil, rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(2, 2)))
		if err != nil {
			t.Fatal(err)
		}
		v := &view{}
		if err := gs.Schedule(1, []job.Info{{ID: 1, Submit: 1, Procs: 1}}, false, v, v); err != nil {
			t.Fatal(err)
		}
		want := 0
		if lp.Traits.PreferIdle {
			want = 2
		}
		if len(v.sent) != 1 || v.sent[0] != want {
			t.Errorf("realtime with %s sent to %v, want site %d", local, v.sent, want)
		}
	}
}

// Every queue policy declares the order it serves its queue in (what a
// run's summary.json reports as "order"); no other kind does. With the
// values given, each reports what runs have always reported.
func TestQueueOrderDeclared(t *testing.T) {
	for _, m := range Models() {
		for _, k := range m.Kinds {
			for _, p := range Policies(m.Name, k.Name) {
				if got := p.DeclaresQueueOrder(); got != (k.Name == KindQueue) {
					t.Errorf("%s %s %s: declares a queue order: %v", m.Name, k.Name, p.Name, got)
				}
			}
		}
	}
	for _, c := range []struct {
		model, name string
		given       map[string]string
		want        string
	}{
		{ModelCluster, "fcfs", nil, "fcfs"},
		{ModelCluster, "fcfs", map[string]string{"order": "multifactor"}, "multifactor"},
		{ModelCluster, "easy", map[string]string{"order": "sjf"}, "sjf"},
		{ModelCluster, "backfill", map[string]string{"order": "sjf", "depth": "2"}, "sjf"},
		{ModelCluster, "conservative", nil, "fcfs"},
		{ModelCluster, "firstfit", map[string]string{"order": "sjf"}, "sjf"},
		{ModelCluster, "matrix", nil, "fcfs"},
		{ModelCluster, "jrb", map[string]string{"rank": "log"}, "rank"},
		{ModelCluster, "external", map[string]string{"command": "true"}, "fcfs"},
		{ModelCluster, "python", map[string]string{"class": "mymod:MyPolicy"}, "fcfs"},
		{ModelHetero, "fcfs", nil, "fcfs"},
		{ModelHetero, "easy", nil, "fcfs"},
		{ModelHetero, "flexible", nil, "priority"},
		{ModelHetero, "eg-edf", nil, "fcfs"},
		{ModelHetero, "tabu", nil, "fcfs"},
	} {
		p, err := Lookup(c.model, KindQueue, c.name)
		if err != nil {
			t.Fatal(err)
		}
		v, err := p.Check(c.given)
		if err != nil {
			t.Fatalf("%s %s %v: %v", c.model, c.name, c.given, err)
		}
		if got := p.QueueOrder(v); got != c.want {
			t.Errorf("%s %s %v: order %q, want %q", c.model, c.name, c.given, got, c.want)
		}
	}
}

// An unknown name is answered with the known one it most likely meant:
// the same but for case, or the only one within two edits.
func TestSuggest(t *testing.T) {
	known := []string{"fcfs", "firstfit", "easy", "conservative", "backfill"}
	for _, c := range []struct{ name, want string }{
		{"EASY", "easy"}, {"eassy", "easy"}, {"Conservativ", "conservative"}, {"fcf", "fcfs"},
		{"sjf", ""}, {"xyz", ""}, {"backfil", "backfill"},
	} {
		if got := Suggest(c.name, known); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	err := &UnknownNameError{Kind: "policy", Name: "EASY", Known: known}
	if !strings.HasSuffix(err.Error(), `, backfill; did you mean easy?)`) {
		t.Errorf("error %q", err)
	}
}

// A name that is no policy but a value of a policy option (sjf, an
// order) is answered with the option and an example.
func TestUnknownPolicyIsAnOptionValue(t *testing.T) {
	_, err := Lookup(ModelCluster, KindQueue, "sjf")
	if err == nil || !strings.Contains(err.Error(), "sjf is a value of option order (of ") || !strings.Contains(err.Error(), "e.g. --policy easy --order sjf") {
		t.Errorf("error %v", err)
	}
	_, err = Lookup(ModelCluster, KindQueue, "nope")
	if err == nil || strings.Contains(err.Error(), "is a value of option") {
		t.Errorf("error %v", err)
	}
}

// CanonicalName folds case onto a registered name and nothing else: it
// never guesses (a misspelling stays as given, for Lookup's error), and
// a registered name comes back unchanged.
func TestCanonicalName(t *testing.T) {
	for _, c := range []struct{ model, kind, name, want string }{
		{ModelCluster, KindQueue, "EASY", "easy"},
		{ModelCluster, KindQueue, "Conservative", "conservative"},
		{ModelCluster, KindQueue, "easy", "easy"},
		{ModelCluster, KindQueue, "eazy", "eazy"}, // a misspelling is not guessed
		{ModelCluster, KindQueue, "SJF", "SJF"},   // an order, not a policy
		{ModelHetero, KindQueue, "EG-EDF", "eg-edf"},
		{ModelCluster, KindQueue, "EG-EDF", "EG-EDF"}, // not of this model
		{"mesh", KindQueue, "EASY", "EASY"},
	} {
		if got := CanonicalName(c.model, c.kind, c.name); got != c.want {
			t.Errorf("CanonicalName(%s, %s, %q) = %q, want %q", c.model, c.kind, c.name, got, c.want)
		}
	}
	// Every registered name is its own canonical name.
	for _, p := range Policies(ModelCluster, KindQueue) {
		if got := CanonicalName(ModelCluster, KindQueue, strings.ToUpper(p.Name)); got != p.Name {
			t.Errorf("CanonicalName(%q) = %q, want %q", strings.ToUpper(p.Name), got, p.Name)
		}
	}
}
