package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/registry"
)

// The key reference tables of docs/scenarios.md are written from the
// declarations: the settings table and the registry's policies and
// options. Each table stands between two marker lines,
//
//	<!-- settings table SECTION: begin (go generate ./scenario/) -->
//	<!-- settings table SECTION: end -->
//
// go generate ./scenario/ rewrites them (tools/gendocs, which calls
// WriteDocTables); TestDocsSettingsTables fails when they are not what
// the declarations say.

//go:generate go run ../tools/gendocs ../docs/scenarios.md

// docSections are the tables of the key reference, in page order:
// "top" (the top level, stop and warmup), "platform", "workload",
// "policy", and "dependent" (the settings read only when another one
// takes some values).
var docSections = []string{"top", "platform", "workload", "policy", "dependent"}

func docMarkers(section string) (begin, end string) {
	return "<!-- settings table " + section + ": begin (go generate ./scenario/) -->\n",
		"<!-- settings table " + section + ": end -->"
}

// WriteDocTables returns doc (docs/scenarios.md) with its key reference
// tables (the top level, platform, workload and policy keys, and the
// settings read only when another one takes some values) rewritten from
// the declarations, each between its marker lines. It is for the
// generator of the page (go generate ./scenario/); an error says which
// markers are missing.
func WriteDocTables(doc []byte) ([]byte, error) {
	s := string(doc)
	for _, section := range docSections {
		begin, end := docMarkers(section)
		i := strings.Index(s, begin)
		j := strings.Index(s, end)
		if i < 0 || j < i {
			return nil, fmt.Errorf("no markers %q ... %q", strings.TrimSpace(begin), end)
		}
		s = s[:i+len(begin)] + docTable(section) + s[j:]
	}
	return []byte(s), nil
}

// docRow is one row of a key reference table.
type docRow struct {
	key, typ, def, allowed, models, sweep string
}

// docTable is the table of one section.
func docTable(section string) string {
	if section == "dependent" {
		return dependentTable()
	}
	var b strings.Builder
	b.WriteString("| key | type | default | allowed values | models | sweep |\n|---|---|---|---|---|---|\n")
	for _, r := range docRows(section) {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", r.key, r.typ, r.def, r.allowed, r.models, r.sweep)
	}
	return b.String()
}

// docRows are the rows of a section: the settings table's in table
// order, then (workload, policy) the registry's in documentation order.
func docRows(section string) []docRow {
	var rows []docRow
	for _, st := range settingsTable() {
		switch {
		case docSection(st.Key) != section:
		case st.registry:
			rows = append(rows, registryRow(st.Key))
		default:
			rows = append(rows, settingRow(st))
		}
	}
	var keys []string
	switch section {
	case "workload":
		keys = workloadKeys()
	case "policy":
		keys = policyKeys()
	}
	for _, k := range keys {
		path := join(section, k)
		if !slices.ContainsFunc(rows, func(r docRow) bool { return r.key == path }) {
			rows = append(rows, registryRow(path))
		}
	}
	return rows
}

// docSection is the table a setting's row is in.
func docSection(path string) string {
	for _, s := range []string{"platform", "workload", "policy"} {
		if strings.HasPrefix(path, s+".") {
			return s
		}
	}
	return "top"
}

// settingRow is the row of a setting of the table: derived columns
// unless its docSpec says otherwise.
func settingRow(st *settingDecl) docRow {
	f := st.field()
	r := docRow{key: st.Key, typ: kindDoc(f.kind), def: defaultDoc(f, st.Default, false),
		allowed: allowedDoc(f, st.Decl, st.unsigned), models: modelsDoc(f, st.generator), sweep: sweepDoc(f.sweep)}
	if st.hand { // no field: the allowed values are the doc's
		r.allowed = st.Doc
		if st.Type == option.Int || st.Type == option.Float {
			r.allowed = joinDoc(rangeDoc(st.Range), st.Doc)
		}
	}
	d := st.doc
	for _, o := range []struct {
		dst *string
		v   string
	}{{&r.typ, d.typ}, {&r.def, d.def}, {&r.models, d.models}, {&r.sweep, d.sweep}} {
		if o.v != "" {
			*o.dst = o.v
		}
	}
	return r
}

// registryRow is the row of a policy, a policy option or a workload
// model's option: its declaration (the first that declares the key) and
// its schema field.
func registryRow(path string) docRow {
	f := fieldOf(path)
	d, kind := registryDecl(path)
	r := docRow{key: path, typ: kindDoc(f.kind), models: modelsDoc(f, false), sweep: sweepDoc(f.sweep)}
	required := false
	for _, dp := range schemaDeps() {
		required = required || dp.key == path && dp.required
	}
	r.def = defaultDoc(f, f.def, required || kind != nil && kind.Default == "")
	if kind != nil {
		r.allowed = joinDoc(valuesDoc(f), "the "+kind.Title)
		return r
	}
	r.allowed = allowedDoc(f, d, false)
	return r
}

// registryDecl finds the declaration of a registry key: an option's
// Decl, or (for a policy) its kind.
func registryDecl(path string) (option.Decl, *registry.Kind) {
	for _, m := range registry.Models() {
		for _, k := range m.Kinds {
			if k.Key == path {
				return option.Decl{}, &k
			}
			for _, ko := range registry.KindOptions(m.Name, k.Name) {
				if ko.Key == path {
					return ko.Option, nil
				}
			}
		}
		for _, o := range m.Options {
			if o.Key == path {
				return o, nil
			}
		}
	}
	for _, wm := range registry.WorkloadModels() {
		for _, o := range wm.Options {
			if o.Key == path {
				return o, nil
			}
		}
	}
	return option.Decl{}, nil
}

func kindDoc(k kind) string {
	switch k {
	case kInt, kUint:
		return "integer"
	case kFloat:
		return "number"
	case kFrac:
		return "fraction"
	case kBool:
		return "boolean"
	case kEnum:
		return "name"
	}
	return "string"
}

func sweepDoc(sweep bool) string {
	if sweep {
		return "yes"
	}
	return "no"
}

// defaultDoc is the default column: the default (names in backticks),
// "required", or the zero value the setting has when not given.
func defaultDoc(f *field, def string, required bool) string {
	switch {
	case def != "" && (f.kind == kEnum || f.kind == kString):
		return "`" + def + "`"
	case def != "":
		return def
	case required:
		return "required"
	case f.kind == kBool:
		return "false"
	case f.kind == kInt || f.kind == kFloat || f.kind == kFrac:
		return "0"
	}
	return "—"
}

// allowedDoc is the allowed-values column: the range or the values (the
// values are left out when the doc names each of them in backticks),
// then the doc.
func allowedDoc(f *field, d option.Decl, unsigned bool) string {
	switch {
	case unsigned:
		return joinDoc(">= 0", d.Doc)
	case f.kind == kInt || f.kind == kFloat || f.kind == kFrac:
		return joinDoc(rangeDoc(d.Range), d.Doc)
	case f.kind == kEnum:
		named := true
		for _, v := range f.enumValues("") {
			named = named && strings.Contains(d.Doc, "`"+v+"`")
		}
		if named {
			return d.Doc
		}
		return joinDoc(valuesDoc(f), d.Doc)
	}
	return d.Doc
}

func joinDoc(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// valuesDoc lists an enum's values (per model when they differ) or a
// numeric kind's names.
func valuesDoc(f *field) string {
	quote := func(vs []string) string { return "`" + strings.Join(vs, "`, `") + "`" }
	if v, ok := f.enum[""]; ok {
		return quote(v)
	}
	var parts []string
	var first []string
	same := true
	for i, m := range f.models {
		vs := f.enum[m]
		if f.kind != kEnum {
			vs = registry.Names(m, kindOf(f.path, m))
		}
		if i == 0 {
			first = vs
		}
		same = same && strings.Join(vs, ",") == strings.Join(first, ",")
		parts = append(parts, m+": "+quote(vs))
	}
	if same {
		return quote(first)
	}
	return strings.Join(parts, "; ")
}

// kindOf is the kind whose key is path in a model ("" if none).
func kindOf(path, model string) string {
	if m, err := registry.LookupModel(model); err == nil {
		for _, k := range m.Kinds {
			if k.Key == path {
				return k.Name
			}
		}
	}
	return ""
}

// rangeDoc writes a range: "1..16", ">= 0", "> 0".
func rangeDoc(r option.Range) string {
	if r == (option.Range{}) {
		return ""
	}
	if !r.MinOpen && !math.IsInf(r.Max, 1) && !math.IsInf(r.Min, -1) {
		return docNum(r.Min) + ".." + docNum(r.Max)
	}
	if r.MinOpen && !math.IsInf(r.Max, 1) {
		return "> " + docNum(r.Min) + ", <= " + docNum(r.Max)
	}
	if math.IsInf(r.Min, -1) && math.IsInf(r.Max, 1) {
		return "any finite number"
	}
	return r.String()
}

// docNum writes a bound: integers in full, except powers of ten from
// 1e7 (1e8, 1e12), and other numbers in their short form (1e-6).
func docNum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if p := strings.TrimLeft(s, "1"); len(s) > 7 && len(p) == len(s)-1 && strings.Trim(p, "0") == "" {
			return "1e" + strconv.Itoa(len(p))
		}
		return s
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	return strings.NewReplacer("e+0", "e", "e+", "e", "e-0", "e-").Replace(s)
}

// modelsDoc is the models column: the models that read the setting, each
// with what it needs to read it (a trace, a synthetic workload, the
// settings it depends on: deps); models that need the same are written
// together.
func modelsDoc(f *field, generator bool) string {
	var order []string
	groups := map[string][]string{}
	for _, m := range allModels {
		if !has(f.models, m) {
			continue
		}
		need := modelNeeds(f, m, generator)
		if _, ok := groups[need]; !ok {
			order = append(order, need)
		}
		groups[need] = append(groups[need], m)
	}
	if len(order) == 1 && order[0] == "" && len(groups[""]) == len(allModels) {
		return "all"
	}
	var parts []string
	for _, need := range order {
		parts = append(parts, strings.Join(groups[need], ", ")+need)
	}
	return strings.Join(parts, "; ")
}

// modelNeeds is what a model needs to read the setting, as a suffix of
// its name (" with a trace", ", queue `backfill`").
func modelNeeds(f *field, model string, generator bool) string {
	var need string
	switch {
	case model != registry.ModelCluster || f.wopt:
	case f.traceOnly && f.requests:
		need = " with a trace or a declared `model`"
	case f.traceOnly:
		need = " with a trace"
	case f.synthOnly:
		need = " (synthetic)"
	}
	if generator {
		need = " without `sites`"
	}
	for _, dp := range schemaDeps() {
		if dp.key != f.path || dp.model != model {
			continue
		}
		var vs []string
		for _, v := range dp.when {
			vs = append(vs, "`"+v+"`")
		}
		on := dp.on[strings.LastIndexByte(dp.on, '.')+1:]
		if has(allModels, on) { // "grid, policy.grid `hybrid`", not "grid, grid `hybrid`"
			on = dp.on
		}
		need += ", " + on + " " + orList(vs)
	}
	return need
}

// dependentTable lists the settings read only when others take some
// values (deps, the hetero machine generator), in schema order; settings
// with the same condition share a row.
func dependentTable() string {
	type row struct {
		keys []string
		cond string
	}
	var rows []row
	for _, f := range schemaFields() {
		cond := readCondition(f)
		switch n := len(rows); {
		case cond == "":
		case n > 0 && rows[n-1].cond == cond:
			rows[n-1].keys = append(rows[n-1].keys, f.path)
		default:
			rows = append(rows, row{keys: []string{f.path}, cond: cond})
		}
	}
	var b strings.Builder
	b.WriteString("| setting | read only when |\n|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| `%s` | %s |\n", strings.Join(r.keys, "`, `"), r.cond)
	}
	return b.String()
}

// readCondition is what a setting needs to be read ("" = nothing): the
// values of the settings it depends on (deps that leave out some value),
// with the model when the controlling setting is several models'.
func readCondition(f *field) string {
	if st := settingByPath()[f.path]; st != nil && st.generator {
		return "the file has no `platform.sites` (hetero)"
	}
	var conds []string
	models := map[string]bool{}
	var order []string               // the models, in the order of their first dependency
	byModel := map[string][]string{} // each model's own conditions
	for _, dp := range schemaDeps() {
		if dp.key != f.path || coversAll(dp) {
			continue
		}
		var vs []string
		for _, v := range dp.when {
			vs = append(vs, "`"+v+"`")
		}
		c := "`" + dp.on + "` is " + orList(vs)
		if !has(conds, c) {
			conds = append(conds, c)
		}
		if !models[dp.model] {
			order = append(order, dp.model)
		}
		models[dp.model] = true
		if !has(byModel[dp.model], c) {
			byModel[dp.model] = append(byModel[dp.model], c)
		}
	}
	if len(conds) == 0 {
		return ""
	}
	// models whose conditions differ (policy.timeout: external or python
	// on the cluster, external alone on hetero) each say their own
	for _, m := range order[1:] {
		if !slices.Equal(byModel[m], byModel[order[0]]) {
			var per []string
			for _, m := range order {
				per = append(per, strings.Join(byModel[m], " and ")+" ("+m+")")
			}
			return strings.Join(per, "; ")
		}
	}
	cond := strings.Join(conds, " and ")
	if len(models) == 1 {
		for m := range models { // the only one
			if len(f.models) > 1 || len(modelsOf(f.path)) > 1 || len(modelsOf(onOf(f.path))) > 1 {
				cond += " (" + m + ")"
			}
		}
	}
	return cond
}

// onOf is the first setting the setting at path depends on.
func onOf(path string) string {
	for _, dp := range schemaDeps() {
		if dp.key == path {
			return dp.on
		}
	}
	return ""
}

// coversAll reports a dependency every value of its controlling setting
// satisfies (a required option every policy of its kind reads).
func coversAll(dp dep) bool {
	f := fieldOf(dp.on)
	if f == nil {
		return false
	}
	all := f.enumValues(dp.model)
	if f.kind != kEnum {
		all = registry.Names(dp.model, kindOf(dp.on, dp.model))
	}
	for _, v := range all {
		if !has(dp.when, v) {
			return false
		}
	}
	return len(all) > 0
}
