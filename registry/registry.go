package registry

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// The models, by name (the scenario key model): policy's names.
const (
	ModelCluster = policy.ModelCluster // one space-shared cluster, central queue
	ModelGrid    = policy.ModelGrid    // zikos-karatza-2008: sites of per-processor queues under a grid scheduler
	ModelGang    = policy.ModelGang    // dimitriadou-karatza-2010: gangs and local jobs on sites
	ModelHetero  = policy.ModelHetero  // klusacek-2008: heterogeneous machines, deadlines
)

// The policy kinds, by name: what a model selects by name.
const (
	KindQueue    = policy.KindQueue    // cluster, hetero: the central queue's policy
	KindGrid     = policy.KindGrid     // grid: the grid scheduler's dispatch
	KindLocal    = policy.KindLocal    // grid: the local scheduler's processor selection
	KindApproach = policy.KindApproach // gang: gang placement, approach 1 or 2
)

// Model describes one simulation model.
type Model struct {
	Name        string
	Summary     string // one line
	Implemented bool   // false: scenario files are checked, nothing runs them yet
	Kinds       []Kind // the policies the model selects by name, in documentation order
	// Options are settings of the model itself that read like policy
	// options (none today: the gang model's GS-queue examination rule,
	// the one there was, is now its approaches' option examine).
	Options []Option
	// Metrics are the names of the metrics a replication of the model
	// reports by default, in output order; SiteMetrics the per-site ones,
	// reported as "site<i>_<name>" for every site i (0-based) after them.
	// Requestable are the model's metrics that are not on by default:
	// reported only when a scenario's metrics list (or run --metric)
	// names them, after the others, in the list's order.
	// All four are derived from the metric declarations (Metrics,
	// registry/table.go), never written here.
	Metrics, SiteMetrics, Requestable []string
	// UserMetrics are per-user metrics, reported as "user<u>_<name>" for
	// user id u only when a scenario's metrics list names them (so that
	// adding them changes no existing output), after the others, in the
	// list's order.
	UserMetrics []string
}

// Kind is one kind of policy a model selects by name.
type Kind struct {
	Model string // the model's name
	Name  string // KindQueue, KindGrid, KindLocal or KindApproach
	Title string // for listings: "queue policy", "grid scheduler"
	Noun  string // for messages: unknown <Noun> "x"
	Key   string // the scenario key that names the policy, e.g. "policy.grid"
	Flag  string // the flag of 'schedlab run' that names it ("" = scenario files only)
	// Default is the policy used when a scenario does not name one ("" =
	// the scenario must).
	Default string
	// Numeric: the names are integers, written as numbers in scenario
	// files (the gang approaches 1 and 2).
	Numeric bool
}

// Traits are a policy's typed facts (policy.Traits).
type Traits = policy.Traits

// Entry is one registered policy: its declaration (name within a model
// and kind, summary, traits, typed options) and its factory, behind Build.
type Entry struct {
	Model   string
	Kind    string
	Name    string
	Summary string // one line
	Traits  Traits
	options []Option
	newFn   func(policy.Env, option.Values) (policy.Built, error)
	checkFn func(option.Values) error
	inProc  func(option.Values) error
	order   func(option.Values) string
}

func fromDecl(d policy.Decl) Entry {
	return Entry{Model: d.Model, Kind: d.Kind, Name: d.Name, Summary: d.Summary, Traits: d.Traits,
		options: option.CloneAll(d.Options), newFn: d.New, checkFn: d.Check, inProc: d.CheckInProcess,
		order: d.QueueOrder}
}

// QueueOrder is the order a queue policy serves its waiting jobs in with
// the checked values v, as its declaration computes it
// (policy.Decl.QueueOrder; summary.json's "order"); "" for a policy
// that declares none.
func (p Entry) QueueOrder(v option.Values) string {
	if p.order == nil {
		return ""
	}
	return p.order(v)
}

// DeclaresQueueOrder reports whether the policy declares its queue
// order (policy.Decl.QueueOrder).
func (p Entry) DeclaresQueueOrder() bool { return p.order != nil }

// Options lists the policy's options in documentation order (a fresh
// copy).
func (p Entry) Options() []Option { return option.CloneAll(p.options) }

// Option returns the policy's option called name.
func (p Entry) Option(name string) (Option, bool) {
	for _, o := range p.options {
		if o.Name == name {
			return o.Clone(), true
		}
	}
	return Option{}, false
}

// HasOption reports whether the policy reads the option called name.
func (p Entry) HasOption(name string) bool {
	_, ok := p.Option(name)
	return ok
}

// Own is the part of opts that names the policy's own options (a model
// hands every policy of a point the point's option texts; each takes its
// own).
func (p Entry) Own(opts map[string]string) map[string]string {
	var out map[string]string
	for _, o := range p.options {
		if v, ok := opts[o.Name]; ok {
			if out == nil {
				out = map[string]string{}
			}
			out[o.Name] = v
		}
	}
	return out
}

// Check checks option texts (name -> text) against the policy's
// declarations: every problem is named (option.Error), defaults fill the
// rest.
func (p Entry) Check(given map[string]string) (option.Values, error) {
	v, err := option.Check(p.options, given)
	if err == nil && p.checkFn != nil {
		err = p.checkFn(v)
	}
	if err != nil {
		return option.Values{}, fmt.Errorf("%s %s: %w", p.Noun(), p.Name, err)
	}
	return v, nil
}

// InProcess reports whether the policy can take its decisions from
// policy.Env.Decider, a program that runs the engine in its own process
// (policy.Decl.CheckInProcess).
func (p Entry) InProcess() bool { return p.inProc != nil }

// CheckInProcess checks option texts for a run whose decisions come from
// policy.Env.Decider: the declarations, then the policy's own in-process
// check in place of Check's. A policy that cannot take a decider is an
// error.
func (p Entry) CheckInProcess(given map[string]string) (option.Values, error) {
	if p.inProc == nil {
		return option.Values{}, fmt.Errorf("%s %s does not take its decisions from the calling program", p.Noun(), p.Name)
	}
	v, err := option.Check(p.options, given)
	if err == nil {
		err = p.inProc(v)
	}
	if err != nil {
		return option.Values{}, fmt.Errorf("%s %s: %w", p.Noun(), p.Name, err)
	}
	return v, nil
}

// InProcessNames lists the policies of a model and kind that can take
// their decisions from policy.Env.Decider, in documentation order.
func InProcessNames(model, kind string) []string {
	var out []string
	for _, p := range Policies(model, kind) {
		if p.InProcess() {
			out = append(out, p.Name)
		}
	}
	return out
}

// Noun is how messages name a policy of the policy's kind ("policy",
// "grid scheduler").
func (p Entry) Noun() string {
	if m, err := LookupModel(p.Model); err == nil {
		if k, ok := m.Kind(p.Kind); ok {
			return k.Noun
		}
	}
	return "policy"
}

// Build checks the option texts given and builds the policy for env.
func (p Entry) Build(env policy.Env, given map[string]string) (policy.Built, error) {
	v, err := p.Check(given)
	if err != nil {
		return policy.Built{}, err
	}
	return p.BuildValues(env, v)
}

// BuildValues builds the policy for env from values checked by Check.
func (p Entry) BuildValues(env policy.Env, v option.Values) (policy.Built, error) {
	if p.newFn == nil {
		if m, err := LookupModel(p.Model); err == nil && !m.Implemented {
			return policy.Built{}, &NotImplementedError{Model: p.Model}
		}
		return policy.Built{}, fmt.Errorf("%s %s of model %s has no factory", p.Kind, p.Name, p.Model)
	}
	b, err := p.newFn(env, v)
	if err != nil {
		return b, err
	}
	var ok bool
	switch {
	case p.Kind == KindQueue && env.Nodes != nil:
		if b.Nodes == nil {
			if b.Queue != nil {
				closeBuilt(b.Queue)
			}
			if p.Traits.ByCounts {
				return policy.Built{}, fmt.Errorf("%s %s of model %s runs on a platform of nodes only planned by counts, when every job asks for cores alone (an SWF trace; not with --node-planner nodes): docs/nodes.md, \"Two planners\"", p.Kind, p.Name, p.Model)
			}
			return policy.Built{}, fmt.Errorf("%s %s of model %s does not run on a platform of nodes (docs/nodes.md lists the policies that do)", p.Kind, p.Name, p.Model)
		}
		ok = true
	case p.Kind == KindQueue:
		ok = b.Queue != nil
	case p.Kind == KindGrid:
		ok = b.Grid != nil
	case p.Kind == KindLocal:
		ok = b.Local != nil
	case p.Kind == KindApproach:
		ok = b.Gang != nil
	}
	if !ok {
		return b, fmt.Errorf("%s %s of model %s: its factory built no %s policy", p.Kind, p.Name, p.Model, p.Kind)
	}
	return b, nil
}

// Option is one typed option of a policy or model (option.Decl).
type Option = option.Decl

// OptionType is the type of an option's value.
type OptionType = option.Type

const (
	TypeInt      = option.Int      // an integer
	TypeFloat    = option.Float    // a finite number
	TypeFraction = option.Fraction // a finite number; "10%" in scenario files
	TypeBool     = option.Bool     // true or false
	TypeEnum     = option.Enum     // one of Values
	TypeText     = option.Text     // text the policy parses itself
)

// Range bounds a numeric option.
type Range = option.Range

// AtLeast is [min, +Inf).
func AtLeast(min float64) Range { return option.AtLeast(min) }

// Above is (min, +Inf).
func Above(min float64) Range { return option.Above(min) }

// Between is [min, max].
func Between(min, max float64) Range { return option.Between(min, max) }

// HasMetric reports whether the model reports a metric called name for a
// platform of any number of sites (a site metric's index is not checked).
func (m Model) HasMetric(name string) bool {
	if slices.Contains(m.Metrics, name) || slices.Contains(m.Requestable, name) {
		return true
	}
	if _, metric, ok := UserMetric(name); ok {
		return slices.Contains(m.UserMetrics, metric)
	}
	rest, ok := strings.CutPrefix(name, "site")
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || i > 1 && rest[0] == '0' || i >= len(rest) || rest[i] != '_' {
		return false
	}
	return slices.Contains(m.SiteMetrics, rest[i+1:])
}

// MaxUserID bounds the user id of a per-user metric.
const MaxUserID = 1<<31 - 1

// UserMetric splits a per-user metric's name "user<u>_<metric>" (u a
// user id in 0..MaxUserID, written without leading zeros).
func UserMetric(name string) (user int32, metric string, ok bool) {
	rest, ok := strings.CutPrefix(name, "user")
	if !ok {
		return 0, "", false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || i > 10 || i > 1 && rest[0] == '0' || i >= len(rest) || rest[i] != '_' {
		return 0, "", false
	}
	u, err := strconv.ParseInt(rest[:i], 10, 64)
	if err != nil || u > MaxUserID {
		return 0, "", false
	}
	return int32(u), rest[i+1:], true
}

func (m Model) clone() Model {
	m.Kinds = slices.Clone(m.Kinds)
	m.Options = option.CloneAll(m.Options)
	m.Metrics, m.SiteMetrics, m.UserMetrics = slices.Clone(m.Metrics), slices.Clone(m.SiteMetrics), slices.Clone(m.UserMetrics)
	m.Requestable = slices.Clone(m.Requestable)
	return m
}

// Kind returns the model's kind called name.
func (m Model) Kind(name string) (Kind, bool) {
	for _, k := range m.Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Models lists the models in documentation order (fresh copies).
func Models() []Model {
	ms := models()
	for i := range ms {
		fillMetrics(&ms[i])
	}
	return ms
}

// ModelNames lists the models' names in documentation order.
func ModelNames() []string {
	var out []string
	for _, m := range models() {
		out = append(out, m.Name)
	}
	return out
}

// LookupModel returns the model called name, or an *UnknownNameError.
func LookupModel(name string) (Model, error) {
	for _, m := range models() {
		if m.Name == name {
			fillMetrics(&m)
			return m, nil
		}
	}
	return Model{}, &UnknownNameError{Kind: "model", Name: name, Known: ModelNames()}
}

// Policies lists the policies of one kind of a model in documentation
// order; nil for an unknown model or kind.
func Policies(model, kind string) []Entry {
	var out []Entry
	for _, p := range policies() {
		if p.Model == model && p.Kind == kind {
			p.options = option.CloneAll(p.options)
			out = append(out, p)
		}
	}
	return out
}

// Names lists the names of one kind of policy of a model, in
// documentation order.
func Names(model, kind string) []string {
	var out []string
	for _, p := range policies() {
		if p.Model == model && p.Kind == kind {
			out = append(out, p.Name)
		}
	}
	return out
}

// Lookup returns the policy called name among the policies of one kind of
// a model. An unknown model, kind or name gives an *UnknownNameError
// listing the known ones.
func Lookup(model, kind, name string) (Entry, error) {
	m, err := LookupModel(model)
	if err != nil {
		return Entry{}, err
	}
	k, ok := m.Kind(kind)
	if !ok {
		var known []string
		for _, k := range m.Kinds {
			known = append(known, k.Name)
		}
		return Entry{}, &UnknownNameError{Kind: "policy kind of model " + model, Name: kind, Known: known}
	}
	for _, p := range policies() {
		if p.Model == model && p.Kind == kind && p.Name == name {
			p.options = option.CloneAll(p.options) // a fresh copy, as Policies gives
			return p, nil
		}
	}
	return Entry{}, &UnknownNameError{Kind: k.Noun, Name: name, Known: Names(model, kind), Hint: valueHint(model, kind, name)}
}

// CanonicalName is the name of the policy of one kind of a model that
// name spells but for case (EASY, Easy: easy), so that a command line
// may give it in any case and every output names it as registered;
// name itself when it is a registered name, when none or several match
// (a name is never guessed), or when the model or kind is unknown.
func CanonicalName(model, kind, name string) string {
	found := ""
	for _, p := range policies() {
		if p.Model != model || p.Kind != kind {
			continue
		}
		if p.Name == name {
			return name
		}
		if strings.EqualFold(p.Name, name) {
			if found != "" && found != p.Name {
				return name
			}
			found = p.Name
		}
	}
	if found == "" {
		return name
	}
	return found
}

// valueHint says, for a name that is no policy of model's kind but a
// value of one of their options (sjf, an order), which option takes it
// and for which policies: "sjf is a value of option order (of fcfs,
// easy, ...): --policy easy --order sjf". "" when no option has it.
func valueHint(model, kind, name string) string {
	var pols []string
	var opt option.Decl
	for _, p := range policies() {
		if p.Model != model || p.Kind != kind {
			continue
		}
		for _, o := range p.options {
			if o.Type != option.Enum || (opt.Name != "" && o.Name != opt.Name) {
				continue
			}
			for _, v := range o.Values {
				if strings.EqualFold(v, name) {
					opt = o
					pols = append(pols, p.Name)
				}
			}
		}
	}
	if len(pols) == 0 {
		return ""
	}
	flag := "--" + strings.ReplaceAll(opt.Name, "_", "-")
	if opt.Flag != "" {
		flag = "--" + opt.Flag
	}
	eg := pols[0]
	if slices.Contains(pols, "easy") {
		eg = "easy" // the common backfilling policy, as the docs' examples
	}
	return fmt.Sprintf("%s is a value of option %s (of %s): e.g. --policy %s %s %s", name, opt.Name, strings.Join(pols, ", "), eg, flag, strings.ToLower(name))
}

// NewGridPair builds the grid model's two policies by name: the grid
// scheduler called gridName with option texts opts and the local
// scheduler called localName, the grid scheduler told the local one's
// PreferIdle trait. gr and lr are their streams.
func NewGridPair(gridName, localName string, opts map[string]string, gr, lr *rand.Rand) (policy.GridScheduler, policy.LocalScheduler, error) {
	gp, err := Lookup(ModelGrid, KindGrid, gridName)
	if err != nil {
		return nil, nil, err
	}
	lp, err := Lookup(ModelGrid, KindLocal, localName)
	if err != nil {
		return nil, nil, err
	}
	g, err := gp.Build(policy.Env{Rand: gr, PreferIdle: lp.Traits.PreferIdle}, gp.Own(opts))
	if err != nil {
		return nil, nil, err
	}
	l, err := lp.Build(policy.Env{Rand: lr}, nil)
	if err != nil {
		return nil, nil, err
	}
	return g.Grid, l.Local, nil
}

// KindOption is one option of a kind of policy, with the policies that
// take it.
type KindOption struct {
	Option            // Values: every value some policy allows, the widest list
	Policies []string // the policies that take the option, in documentation order
}

// KindOptions lists the options the policies of one kind take, each
// once. The order keeps every policy's own order of its options (ties:
// the option met first).
func KindOptions(model, kind string) []KindOption {
	ps := Policies(model, kind)
	var out []KindOption
	index := map[string]int{}
	before := map[string]map[string]bool{} // before[b][a]: a comes before b in some policy
	for _, p := range ps {
		for i, o := range p.options {
			k, ok := index[o.Name]
			if !ok {
				k = len(out)
				index[o.Name] = k
				out = append(out, KindOption{Option: o.Clone()})
				before[o.Name] = map[string]bool{}
			}
			out[k].Policies = append(out[k].Policies, p.Name)
			if len(o.Values) > len(out[k].Values) {
				out[k].Values = slices.Clone(o.Values)
			}
			for _, a := range p.options[:i] {
				before[o.Name][a.Name] = true
			}
		}
	}
	// Topological order, stable by first appearance; a cycle (two
	// policies listing two options in opposite orders) is broken by first
	// appearance.
	var sorted []KindOption
	placed := map[string]bool{}
	for len(sorted) < len(out) {
		next := -1
		for i, ko := range out {
			if placed[ko.Name] {
				continue
			}
			if next < 0 {
				next = i
			}
			ready := true
			for a := range before[ko.Name] {
				ready = ready && placed[a]
			}
			if ready {
				next = i
				break
			}
		}
		placed[out[next].Name] = true
		sorted = append(sorted, out[next])
	}
	return sorted
}

// closeBuilt ends what a policy built and then refused holds outside
// the process (an external decision process).
func closeBuilt(q policy.QueueScheduler) {
	if c := policy.CapsOf(q).Close; c != nil {
		c.Close()
	}
}
