package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/schedlab/schedlab/registry"
)

// TestEveryFlag holds the exit-status rule for every flag of every
// command: a wrong command line (a value out of range, a flag the chosen
// policy or paper would ignore, flags that do not go together) is 2; a
// file named on it that is missing or cannot be written is 1. Each case
// fails before any work, so the table runs in moments. A flag added
// without a case here fails the test.
func TestEveryFlag(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.swf")
	sc := filepath.Join(dir, "s.yaml")
	file := filepath.Join(dir, "file")
	acct := filepath.Join(dir, "acct.txt")
	sconf := filepath.Join(dir, "slurm.conf")
	for name, text := range map[string]string{
		sconf: "NodeName=n1 CPUs=4\n",
		acct:  "JobIDRaw|Submit|Start|End|Timelimit|NCPUS|State\n1|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:01:00|10|2|COMPLETED\n",
		tr:    "; MaxProcs: 8\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n",
		sc:    "model: grid\nstop: {completed: 10}\nplatform: {sites: 2, procs_per_site: 4}\nworkload: {mean_interarrival: 1}\npolicy: {grid: realtime, local: sq}\n",
		file:  "not a folder\n",
	} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := []string{"run", "--trace", tr, "--policy", "easy"}
	zikos := []string{"reproduce", "zikos2008", "--quick"}
	// synth: a valid trace synth command; the cases add or override a
	// flag (kong keeps the last of a repeated flag).
	synth := []string{"trace", "synth", "--model", "lublin", "--procs", "8", "--jobs", "8", "--out", filepath.Join(dir, "s.swf")}
	jobs := writeFile(t, dir, "jobs.txt", "0 10 2\n")
	cases := map[string]struct {
		args []string
		want int
		msg  string
	}{
		"reproduce --readings":        {append(zikos, "--readings"), 2, "--readings is only for"},
		"reproduce --bm-est":          {append(zikos, "--bm-est", "max"), 2, "--bm-est is only for klusacek2008"},
		"reproduce --deadline-rule":   {append(zikos, "--deadline-rule", "alea"), 2, "--deadline-rule is only for klusacek2008"},
		"reproduce --arrival-reading": {append(zikos, "--arrival-reading", "B"), 2, "--arrival-reading is only for alnajjar2019"},
		"reproduce --out":             {append(zikos, "--out", file), 1, "exists and is not a folder"},
		"reproduce --quick":           {append(zikos, "--quick=perhaps"), 2, "--quick"},
		"reproduce --report":          {append(zikos, "--report=perhaps"), 2, "--report"},
		"reproduce --workers":         {append(zikos, "--workers=-1"), 2, "--workers -1: must not be negative"},
		"reproduce --seed":            {append(zikos, "--seed=-1"), 2, "--seed"},
		"reproduce --reps":            {append(zikos, "--reps", "1"), 2, "--reps 1: want 2..1000"},
		"reproduce --jobs":            {append(zikos, "--jobs", "0"), 2, "--jobs 0: want 1..100000000"},

		"run --trace":             {[]string{"run", "--trace", filepath.Join(dir, "missing.swf"), "--policy", "easy"}, 1, "missing.swf: no such file"},
		"run --policy":            {[]string{"run", "--trace", tr, "--policy", "nope"}, 2, `unknown policy "nope"`},
		"run --estimate":          {append(run, "--estimate", "guess"), 2, "--estimate"},
		"run --power":             {append(run, "--power", "190:95"), 2, "--power"},
		"run --carbon":            {append(run, "--carbon", filepath.Join(dir, "carbon.csv")), 2, "--carbon needs --power"},
		"run --price":             {append(run, "--power", "1:2", "--price", filepath.Join(dir, "missing-price.csv")), 2, "--price: open"},
		"run --sleep-after":       {append(run, "--power", "1:2", "--sleep-after", "600"), 2, "--sleep-after: the idle sleeper needs a power model with states"},
		"run --power-cap":         {append(run, "--power", "1:2", "--power-cap", "100@5-x"), 2, `--power-cap "100@5-x": item 1 "100@5-x": field end: "x"`},
		"run --carbon-delay":      {append(run, "--carbon-delay", "600"), 2, "--carbon-delay: the carbon-aware delay needs a carbon intensity signal"},
		"run --nodes":             {append(run, "--nodes", "n[1-4]:cores=4:mem=4GB"), 2, `--nodes: node group 1 "n[1-4]:cores=4:mem=4GB": column 21 (mem): unit "GB"`},
		"run --node-planner":      {append(run, "--node-planner", "counts"), 2, "--node-planner counts: the node planner is for a platform of nodes (--nodes)"},
		"run --slurm-conf":        {append(run, "--slurm-conf", filepath.Join(dir, "missing.conf")), 1, "missing.conf: no such file"},
		"run --slurm-nodes":       {append(run, "--slurm-nodes"), 2, "--slurm-nodes takes the nodes of --slurm-conf FILE: give the file"},
		"run --slurm-qos":         {append(run, "--slurm-qos", filepath.Join(dir, "qos.txt")), 2, "--slurm-qos sets the QOS limits of the slurm policy: give --policy slurm (not easy)"},
		"slurm-conf --gres":       {[]string{"slurm-conf", sconf, "--gres", filepath.Join(dir, "missing-gres.conf")}, 1, "missing-gres.conf: no such file"},
		"run --predictor":         {append(run, "--predictor", "avg:3"), 2, "--predictor is only for --estimate predict"},
		"run --correction":        {append(run, "--estimate", "predict", "--correction", "twice"), 2, "--correction"},
		"run --planned":           {append(run, "--planned=perhaps"), 2, "--planned"},
		"run --metric":            {append(run, "--metric", "nope"), 2, `--metric: unknown metric "nope" (the metrics of a trace run: mean_wait, `},
		"run --resample":          {append(run, "--resample", "users"), 2, "--resample"},
		"run --metrics-by":        {append(run, "--metrics-by", "account"), 2, "--metrics-by"},
		"run --replication":       {append(run, "--replication", "3"), 2, "--replication chooses the random streams"},
		"run --procs":             {append(run, "--procs=-1"), 2, "--procs -1: want 1..4194304"},
		"run --on-overrun":        {append(run, "--on-overrun", "pause"), 2, "--on-overrun"},
		"run --clamp":             {append(run, "--clamp=perhaps"), 2, "--clamp"},
		"run --tau":               {append(run, "--tau=-1"), 2, "--tau must be a positive number"},
		"run --out":               {append(run, "--out", file), 1, "exists and is not a folder"},
		"run --no-out":            {append(run, "--no-out", "--out", dir), 2, "--no-out writes no files: --out does not go with it"},
		"run --swf":               {append(run, "--no-out", "--swf"), 2, "--swf does not go with it"},
		"run --report":            {append(run, "--no-out", "--report"), 2, "--report needs an output folder"},
		"run --check":             {append(run, "--no-out", "--check"), 2, "--check does not go with it"},
		"run --json":              {append(run, "--json=perhaps"), 2, "--json"},
		"run --set":               {append(run, "--set", "depth=2"), 2, "--set depth: not an option of --policy easy (its options: order, priority_weight_age, "},
		"run --from":              {append(run, "--from", "1996-13-01"), 2, `--from "1996-13-01": want a date`},
		"run --to":                {append(run, "--to", "0", "--from", "5"), 2, "an empty window"},
		"run --threads":           {append(run, "--threads"), 2, "--threads is only for --policy matrix"},
		"run --deadline":          {append(run, "--deadline", "soon"), 2, "--deadline"},
		"run --deadline-factor":   {append(run, "--deadline", "estimate", "--deadline-factor", "0"), 2, "deadline factor"},
		"run --deadline-fraction": {append(run, "--deadline", "estimate", "--deadline-fraction", "2"), 2, "fraction"},
		"run --seed":              {append(run, "--seed", "7"), 2, "--policy easy without them uses no seed"},
		"run --reservation":       {append(run, "--reservation", "10:5:4"), 2, "--reservation 1: \"10:5:4\": END 5 is not after START 10"},
		"run --events":            {append(run, "--events", filepath.Join(dir, "missing.jsonl")), 1, "missing.jsonl: no such file"},
		"run --partition":         {append(run, "--partition", "a:8:maxtime=0"), 2, `--partition "a:8:maxtime=0": maxtime "0": want a positive number of seconds`},
		"run --failures":          {append(run, "--failures", "0:10"), 2, "mtbf 0: want a positive number"},
		"run --on-failure":        {append(run, "--on-failure", "requeue"), 2, "--on-failure requeue needs failures"},

		"explain --trace":       {[]string{"explain", "--trace", filepath.Join(dir, "missing.swf"), "--policy", "easy", "--job", "1"}, 1, "missing.swf: no such file"},
		"explain --policy":      {[]string{"explain", "--trace", tr, "--policy", "nope", "--job", "1"}, 2, `unknown policy "nope"`},
		"explain --job":         {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "x"}, 2, "--job"},
		"explain --nodes":       {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--nodes", "n[1-2]:cores=4", "--set", "order=multifactor", "--nodes", "m1:cores=2:threads=2"}, 1, "explain on a platform of nodes takes a run planned by counts"},
		"explain --slurm-conf":  {[]string{"explain", "--trace", tr, "--policy", "slurm", "--job", "1", "--slurm-conf", filepath.Join(dir, "missing.conf")}, 1, "missing.conf: no such file"},
		"explain --slurm-nodes": {[]string{"explain", "--trace", tr, "--policy", "slurm", "--job", "1", "--slurm-nodes"}, 2, "--slurm-nodes takes the nodes of --slurm-conf FILE: give the file"},
		"explain --slurm-qos":   {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--slurm-qos", filepath.Join(dir, "qos.txt")}, 2, "--slurm-qos sets the QOS limits of the slurm policy: give --policy slurm (not easy)"},
		"explain --procs":       {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--procs=-1"}, 2, "--procs -1: want 1..4194304"},
		"explain --estimate":    {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--estimate", "guess"}, 2, "--estimate"},
		"explain --set":         {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--set", "depth=2"}, 2, "--set depth: not an option of --policy easy"},
		"explain --from":        {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--from", "1996-13-01"}, 2, `--from "1996-13-01": want a date`},
		"explain --to":          {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--to", "0", "--from", "5"}, 2, "an empty window"},
		"explain --on-overrun":  {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--on-overrun", "pause"}, 2, "--on-overrun"},
		"explain --clamp":       {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--clamp=perhaps"}, 2, "--clamp"},
		"explain --partition":   {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--partition", "a:8:maxtime=0"}, 2, `--partition "a:8:maxtime=0": maxtime "0": want a positive number of seconds`},
		"explain --reservation": {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--reservation", "10:5:4"}, 2, "--reservation 1: \"10:5:4\": END 5 is not after START 10"},
		"explain --events":      {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--events", filepath.Join(dir, "missing.jsonl")}, 1, "missing.jsonl: no such file"},
		"explain --gantt":       {[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--gantt=perhaps"}, 2, "--gantt"},

		"sweep --out":         {[]string{"sweep", sc, "--out", file}, 1, "exists and is not a folder"},
		"sweep --workers":     {[]string{"sweep", sc, "--workers=-1"}, 2, "--workers -1: must not be negative"},
		"sweep --list":        {[]string{"sweep", sc, "--list", "--out", dir}, 2, "--list runs nothing"},
		"sweep --records":     {[]string{"sweep", sc, "--list", "--records"}, 2, "--list runs nothing"},
		"sweep --force":       {[]string{"sweep", sc, "--force", "--shard", "0/2"}, 2, "--force is for a sweep in one process"},
		"sweep --shard":       {[]string{"sweep", sc, "--shard", "3/3"}, 2, "--shard shard 3 of 3: want 0 <= I < N"},
		"sweep --shards":      {[]string{"sweep", sc, "--shards", "3"}, 2, "--shards 3: which shard?"},
		"sweep --emit":        {[]string{"sweep", sc, "--shards", "3", "--emit", "pbs"}, 2, `--emit "pbs": want slurm`},
		"sweep --name":        {[]string{"sweep", sc, "--shards", "3", "--emit", "slurm", "--name", "My_Sweep"}, 2, `--name "My_Sweep": want lower-case letters`},
		"sweep --image":       {[]string{"sweep", sc, "--shards", "3", "--emit", "slurm", "--image", "x:1"}, 2, "--image is only for --emit k8s"},
		"sweep --volume":      {[]string{"sweep", sc, "--shards", "3", "--emit", "k8s", "--volume", "Data"}, 2, `--volume "Data": a PersistentVolumeClaim name`},
		"sweep --parallelism": {[]string{"sweep", sc, "--shards", "3", "--emit", "k8s", "--parallelism", "4"}, 2, "--parallelism 4: want 1..3"},

		"merge --wait": {[]string{"merge", dir, "--wait=-1s"}, 2, "--wait -1s: want 0 (no wait) up to 8784h0m0s"},

		"trace info --procs":           {[]string{"trace", "info", tr, "--procs=-1"}, 2, "--procs -1: want 1..4194304"},
		"trace info --clamp":           {[]string{"trace", "info", tr, "--clamp=perhaps"}, 2, "--clamp"},
		"trace repeat --times":         {[]string{"trace", "repeat", tr, "--times", "0", "--out", filepath.Join(dir, "r.swf")}, 2, "--times 0: want 1..10000"},
		"trace repeat --gap":           {[]string{"trace", "repeat", tr, "--times", "2", "--gap=-1", "--out", filepath.Join(dir, "r.swf")}, 2, "--gap -1: want 0..1e+09 seconds"},
		"trace import --from":          {[]string{"trace", "import", tr, "--from", "lsf", "--out", filepath.Join(dir, "i.swf")}, 2, "--from"},
		"trace import --format":        {[]string{"trace", "import", acct, "--from", "sacct", "--out", filepath.Join(dir, "i.swf"), "--format", "csv"}, 2, "--format"},
		"trace import --out":           {[]string{"trace", "import", acct, "--from", "sacct", "--out", filepath.Join(file, "i.swf")}, 1, "not a folder"},
		"trace import --procs":         {[]string{"trace", "import", tr, "--from", "sacct", "--out", filepath.Join(dir, "i.swf"), "--procs=-1"}, 2, "--procs -1: want 1..4194304"},
		"trace import --steps":         {[]string{"trace", "import", tr, "--from", "sacct", "--out", filepath.Join(dir, "i.swf"), "--steps=perhaps"}, 2, "--steps"},
		"trace import --timezone":      {[]string{"trace", "import", tr, "--from", "sacct", "--out", filepath.Join(dir, "i.swf"), "--timezone", "Nowhere/Atall"}, 2, "not a time zone name"},
		"trace repeat --out":           {[]string{"trace", "repeat", tr, "--times", "2", "--out", filepath.Join(file, "r.swf")}, 1, "not a folder"},
		"trace synth --model":          {append(synth, "--model", "feitelson96"), 2, `--model must be one of "lublin"`},
		"trace make --procs":           {[]string{"trace", "make", jobs, "--procs", "0", "--out", filepath.Join(dir, "m.swf")}, 2, "--procs 0: want 1..4194304"},
		"trace make --out":             {[]string{"trace", "make", jobs, "--procs", "4", "--out", filepath.Join(file, "m.swf")}, 1, "not a folder"},
		"trace synth --procs":          {append(synth, "--procs", "0"), 2, "--procs 0: want 1..1048576"},
		"trace synth --jobs":           {append(synth, "--jobs", "0"), 2, "--jobs 0: want 1..100000000"},
		"trace synth --seed":           {append(synth, "--seed=-1"), 2, "--seed"},
		"trace synth --class":          {append(synth, "--class", "mixed"), 2, "--class"},
		"trace synth --arrival-factor": {append(synth, "--arrival-factor", "0"), 2, "--arrival-factor 0: want a number in (0, 1e+06]"},
		"trace synth --runtime-factor": {append(synth, "--runtime-factor", "2e6"), 2, "--runtime-factor 2e+06: want a number in (0, 1e+06]"},
		"trace synth --load":           {append(synth, "--load", "101"), 2, "--load 101: want a target offered load in (0, 100]"},
		"trace synth --no-daily-cycle": {append(synth, "--no-daily-cycle=perhaps"), 2, "--no-daily-cycle"},
		"trace synth --users":          {append(synth, "--users", "2000000"), 2, "--users 2000000: want 0..1048576"},
		"trace synth --requests":       {append(synth, "--requests", "guess"), 2, "--requests"},
		"trace synth --out":            {append(synth, "--out", filepath.Join(file, "s.swf")), 1, "not a folder"},
		"trace export --to":            {[]string{"trace", "export", tr, "--to", "csv", "--out", filepath.Join(dir, "w.json")}, 2, "--to"},
		"trace export --out":           {[]string{"trace", "export", tr, "--to", "batsim", "--out", filepath.Join(file, "w.json")}, 1, "not a folder"},
		"trace export --procs":         {[]string{"trace", "export", tr, "--to", "batsim", "--out", filepath.Join(dir, "w.json"), "--procs=-1"}, 2, "--procs -1: want 1..4194304"},

		"report --no-gantt": {[]string{"report", dir, "--no-gantt=perhaps"}, 2, "--no-gantt"},
		"report --out":      {[]string{"report", dir, "--out", filepath.Join(dir, "c.html")}, 2, "--out is only for a comparison of two or more run folders"},
		"report --from":     {[]string{"report", dir, "--from", "soon"}, 2, `--from "soon": want a date`},
		"report --to":       {[]string{"report", dir, "--to", "5", "--from", "9"}, 2, "--from 9 --to 5: an empty window"},
		"report --label":    {[]string{"report", dir, dir, "--out", filepath.Join(dir, "c.html"), "--label", "a", "--label", "a"}, 2, `--label: labels 1 and 2 are both "a"`},

		" --version": {[]string{"--version=perhaps"}, 2, "--version"},

		"fit --json": {[]string{"fit", tr, "--json=perhaps"}, 2, "--json"},

		"bench --trace":    {[]string{"bench", "--trace", filepath.Join(dir, "missing.swf"), "--repeat", "1", "--policy", "fcfs"}, 1, "nothing ran"},
		"bench --policy":   {[]string{"bench", "--policy", "bogus"}, 2, `--policy: unknown policy "bogus"`},
		"bench --repeat":   {[]string{"bench", "--repeat", "0"}, 2, "--repeat must be >= 1"},
		"bench --estimate": {[]string{"bench", "--estimate", "guess"}, 2, "--estimate"},
		"bench --procs":    {[]string{"bench", "--procs=-1"}, 2, "--procs -1: want 1..4194304"},
	}
	var spec cliSpec
	p, err := kong.New(&spec, vars())
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		for _, f := range n.Flags {
			if f.Name == "help" {
				continue
			}
			key := n.Path() + " --" + f.Name
			c, ok := cases[key]
			if !ok {
				t.Errorf("%s: no case (add a wrong use of the flag and its exit status)", key)
				continue
			}
			delete(cases, key)
			var out, errb bytes.Buffer
			if got := Main(c.args, &out, &errb); got != c.want || !strings.Contains(errb.String(), c.msg) {
				t.Errorf("%s: %q: exit %d, stderr %q; want exit %d and %q", key, c.args, got, errb.String(), c.want, c.msg)
			}
		}
		for _, ch := range n.Children {
			walk(ch)
		}
	}
	walk(p.Model.Node)
	for key := range cases {
		t.Errorf("%s: a case for a flag that does not exist", key)
	}
}

// TestVarsExpanded: the placeholders of the command line's help, defaults
// and enums are filled from vars() (expandVars) before kong sees them.
// The texts and defaults below come from the registries, so a
// placeholder left unfilled or filled from the wrong variable shows.
func TestVarsExpanded(t *testing.T) {
	var spec cliSpec
	k, err := kong.New(&spec, kong.Name("schedlab"), expandVars(vars()))
	if err != nil {
		t.Fatal(err)
	}
	var values int
	err = kong.Visit(k.Model.Node, func(n kong.Visitable, next kong.Next) error {
		switch n := n.(type) {
		case *kong.Node:
			if strings.Contains(n.Help+n.Detail, "${") {
				t.Errorf("command %s: placeholder left in %q", n.Path(), n.Help+n.Detail)
			}
		case *kong.Value:
			values++
			s := n.Help + "|" + n.Default + "|" + n.Enum
			if n.Flag != nil {
				s += "|" + n.Flag.PlaceHolder
			}
			if strings.Contains(s, "${") {
				t.Errorf("%s: placeholder left in %q", n.Summary(), s)
			}
		}
		return next(nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	if values < 50 {
		t.Fatalf("only %d flags and arguments visited", values)
	}
	var out, errs bytes.Buffer
	if st := Main([]string{"run", "--help"}, &out, &errs); st != 0 {
		t.Fatalf("run --help: status %d: %s", st, errs.String())
	}
	help := strings.Join(strings.Fields(out.String()), " ")
	for _, want := range []string{
		"Queue policy: " + strings.Join(registry.Names(registry.ModelCluster, registry.KindQueue), ", ") + ";",
		`--order=fcfs|sjf|multifactor (` + strings.Join(orderTakers(), ", ") + `) queue order`,
		`--positive-only (jrb) refuse jobs whose rank is <= 0`,
		`--estimate="request"`,
	} {
		if !strings.Contains(help, want) {
			t.Errorf("run --help lacks %q:\n%s", want, out.String())
		}
	}
}

// BenchmarkStartup is the command line's share of every start: building
// the parser and running 'schedlab version'.
func BenchmarkStartup(b *testing.B) {
	var out, errs bytes.Buffer
	for i := 0; i < b.N; i++ {
		out.Reset()
		if st := Main([]string{"version"}, &out, &errs); st != 0 {
			b.Fatalf("status %d: %s", st, errs.String())
		}
	}
}

// Every policy-option flag of 'schedlab run' (declared by the policies,
// not by the command) is refused with exit 2 and a message naming it
// when the chosen policy does not declare it, and when its value is
// wrong for one that does.
func TestEveryPolicyFlag(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.swf")
	if err := os.WriteFile(tr, []byte("; MaxProcs: 8\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := policyFlags()
	if len(flags) < 10 {
		t.Fatalf("only %d policy flags: %v", len(flags), flags)
	}
	for _, f := range flags {
		// a policy that does not declare it: first-fit declares only order,
		// and order's stranger is jrb
		other := "firstfit"
		if f.name == "order" {
			other = "jrb"
		}
		args := []string{"run", "--trace", tr, "--policy", other, "--" + f.name}
		if !f.boolean {
			args = append(args, "1")
		}
		var out, errb bytes.Buffer
		want := "--" + f.name + " is not an option of --policy " + other + " (only of --policy"
		if got := Main(args, &out, &errb); got != 2 || !strings.Contains(errb.String(), want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", args, got, errb.String(), want)
		}
		if f.boolean {
			continue
		}
		// a bad value for a policy that declares it
		args = []string{"run", "--trace", tr, "--policy", f.policies[len(f.policies)-1], "--" + f.name, "-7.5,x"}
		out.Reset()
		errb.Reset()
		if got := Main(args, &out, &errb); got != 2 || errb.Len() == 0 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a message", args, got, errb.String())
		}
	}
	// A flag without its value, and one after "--", are not taken.
	var out, errb bytes.Buffer
	if got := Main([]string{"run", "--trace", tr, "--policy", "jrb", "--rank"}, &out, &errb); got != 2 || !strings.Contains(errb.String(), "--rank needs a value") {
		t.Errorf("--rank without a value: exit %d, %q", got, errb.String())
	}
}

// orderTakers are the run policies that declare the order option.
func orderTakers() []string {
	var out []string
	for _, p := range runPolicies() {
		if p.HasOption("order") {
			out = append(out, p.Name)
		}
	}
	return out
}

// BenchmarkStartupRun is BenchmarkStartup for a `run` on a one-job trace
// without output: the command line built for run, parsed and run.
func BenchmarkStartupRun(b *testing.B) {
	tr := filepath.Join(b.TempDir(), "t.swf")
	if err := os.WriteFile(tr, []byte("; MaxProcs: 8\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	var out, errs bytes.Buffer
	for i := 0; i < b.N; i++ {
		out.Reset()
		if st := Main([]string{"run", "--trace", tr, "--policy", "fcfs", "--no-out"}, &out, &errs); st != 0 {
			b.Fatalf("status %d: %s", st, errs.String())
		}
	}
}
