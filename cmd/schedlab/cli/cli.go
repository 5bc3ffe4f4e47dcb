package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"

	"github.com/alecthomas/kong"

	"github.com/schedlab/schedlab/cmd/schedlab/launch"
	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/report/htmlreport"
	"github.com/schedlab/schedlab/sweep"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/avail"
	"github.com/schedlab/schedlab/workload/resample"
	"github.com/schedlab/schedlab/workload/swf"
)

// Version is set by the build (or left as "dev").
var Version = "dev"

type globals struct {
	stdout io.Writer
	stderr io.Writer

	mu      sync.Mutex
	outDirs []outDir   // the folders this command writes into (useOutDir)
	locks   []*dirLock // the output folders' locks it holds (lockOutDir)

	// policyFlags are the policy-option flags of a run command line,
	// taken off it before kong parses the rest (takePolicyFlags).
	policyFlags []flagValue
}

// lockOutDir takes the lock of an output folder (lockDir) for the rest
// of the command, before anything is removed or written there: a second
// process writing the folder is refused at once, naming the folder and
// the holder. shared: for the shards of a sweep and its merge, which
// write disjoint files of one folder at the same time.
func (g *globals) lockOutDir(dir string, shared bool) error {
	if err := checkOutDir(dir); err != nil {
		return err
	}
	l, err := lockDir(dir, shared)
	if err != nil {
		return err
	}
	g.mu.Lock()
	g.locks = append(g.locks, l)
	g.mu.Unlock()
	return nil
}

// releaseLocks releases the folders' locks, the last taken first.
func (g *globals) releaseLocks() {
	g.mu.Lock()
	ls := g.locks
	g.locks = nil
	g.mu.Unlock()
	for i := len(ls) - 1; i >= 0; i-- {
		ls[i].release()
	}
}

// outDir is a folder a command writes into; in a folder that other
// processes write into at the same time (the shards of a sweep), only
// the temporary files whose target ours accepts are this command's.
type outDir struct {
	path string
	ours func(target string) bool // nil: every temporary file there
}

// claimOutDir is lockOutDir (not shared) then useOutDir: a folder this
// command alone writes into.
func (g *globals) claimOutDir(dir string) error {
	if err := g.lockOutDir(dir, false); err != nil {
		return err
	}
	return g.useOutDir(dir)
}

// useOutDir prepares a folder the command is about to write into: it
// must be able to be a folder (checkOutDir, before any computing), the
// temporary files an interrupted or killed earlier run left there are
// removed (and said so), and it is remembered, so that an interruption
// of this run removes this run's temporary files from it too.
func (g *globals) useOutDir(dir string) error { return g.useSharedOutDir(dir, nil) }

// useSharedOutDir is useOutDir for a folder other processes may be
// writing into: the temporary files it removes, now and on an
// interruption, are only those whose target name ours accepts (all when
// ours is nil).
func (g *globals) useSharedOutDir(dir string, ours func(target string) bool) error {
	if err := checkOutDir(dir); err != nil {
		return err
	}
	removed, err := atomicfile.RemoveTempsOf(dir, ours)
	if err != nil {
		return fmt.Errorf("output folder %s: %w", dir, err)
	}
	if len(removed) > 0 {
		fmt.Fprintf(g.stderr, "schedlab: removed %d temporary file(s) an interrupted run left in %s\n", len(removed), dir)
	}
	g.mu.Lock()
	g.outDirs = append(g.outDirs, outDir{dir, ours})
	g.mu.Unlock()
	return nil
}

// interrupted removes the temporary files of the folders in use, says
// so, and returns the exit status of the signal: 130 for SIGINT, 143 for
// SIGTERM (128 + the signal number, as shells do).
func (g *globals) interrupted(sig os.Signal) int {
	g.mu.Lock()
	dirs := append([]outDir(nil), g.outDirs...)
	g.mu.Unlock()
	n := 0
	// No worker creates a file once the stop is under way: the files
	// removed here are the last.
	atomicfile.Stop(func() {
		for _, d := range dirs {
			removed, _ := atomicfile.RemoveTempsOf(d.path, d.ours)
			n += len(removed)
		}
	})
	g.releaseLocks()
	status, name := 130, "SIGINT"
	if sig == syscall.SIGTERM {
		status, name = 143, "SIGTERM"
	}
	fmt.Fprintf(g.stderr, "\nschedlab: interrupted (%s): stopped, %d temporary file(s) removed; finished files are kept (exit status %d)\n", name, n, status)
	return status
}

type cliSpec struct {
	Reproduce reproduceCmd `cmd:"" help:"Re-run a paper's experiments and set our numbers beside the published ones."`
	Run       runCmd       `cmd:"" help:"Simulate an SWF trace on one cluster under a queue policy."`
	Sweep     sweepCmd     `cmd:"" help:"Run a scenario file: every point of its sweep, with replications, confidence intervals and paired comparisons."`
	Merge     mergeCmd     `cmd:"" help:"Merge the shards of a sweep (sweep --shard) into the files the unsharded sweep writes, byte for byte; names any missing unit."`
	Report    reportCmd    `cmd:"" help:"Write DIR/report.html: one self-contained page (summary, Gantt chart, utilization, distributions) for an output folder; or, for two or more runs of one trace, one comparison page (--out FILE)."`
	Trace     traceCmd     `cmd:"" help:"Inspect SWF traces."`
	Fit       fitCmd       `cmd:"" help:"Fit JRB rank coefficients to a trace: runtime on CPUs and memory per CPU by least squares, linear and log10 (al-najjar-2019 Tables 2-9)."`
	Policies  policiesCmd  `cmd:"" help:"List the scheduling policies."`
	Explain   explainCmd   `cmd:"" help:"Why did job N start when it did: the scheduling passes from its submission to its start, with the queue, the free CPUs, the reservations and the decision in words."`
	Calibrate calibrateCmd `cmd:"" help:"Compare a simulated run with the recorded one (run --policy recorded) job for job: start errors, waits, per partition and per user."`
	SlurmConf slurmConfCmd `cmd:"" name:"slurm-conf" help:"Read a site's slurm.conf and say what schedlab makes of it: node groups, partitions, scheduler settings, and every key it does not model."`
	Bench     benchCmd     `cmd:"" help:"Time whole simulations of real traces (speed figures for docs/performance.md)."`
	Version   versionCmd   `cmd:"" help:"Print the version."`
	Help      helpCmd      `cmd:"" help:"Show help: 'schedlab help', 'schedlab help run'."`

	VersionFlag versionFlag `name:"version" help:"Print the version."`
}

// helpCmd is 'schedlab help [COMMAND...]': Main turns it into --help.
type helpCmd struct {
	Command []string `arg:"" optional:"" help:"The command to show help for."`
}

func (helpCmd) Run(*globals) error { return nil }

// versionFlag is --version: the version command's output, then exit 0.
type versionFlag bool

func (versionFlag) BeforeReset(app *kong.Kong) error {
	fmt.Fprintf(app.Stdout, "schedlab %s\n", Version)
	app.Exit(0)
	return nil
}

// traceStem names a trace in a default output folder: its file name
// without ".swf.gz" (any other extension is kept, so x.swf and x.swf.gz
// differ), and for a path with a folder, a short digest of that folder,
// so that two traces of the same name in different folders differ.
func traceStem(trace string) string {
	stem := filepath.Base(trace)
	if t := strings.TrimSuffix(stem, ".swf.gz"); t != "" {
		stem = t
	}
	if dir := filepath.Dir(trace); dir != "." {
		abs, err := filepath.Abs(dir)
		if err != nil {
			abs = dir
		}
		sum := sha256.Sum256([]byte(abs))
		stem += "@" + hex.EncodeToString(sum[:4])
	}
	return stem
}

// variant writes every run option that changes results and is not at its
// default, readably ("-order=sjf-procs=64-clamp"), for the default
// output folder: runs that differ get different folders.
func (c *runCmd) variant() string {
	var b strings.Builder
	add := func(set bool, key, val string) {
		if set {
			b.WriteString("-" + key)
			if val != "" {
				b.WriteString("=" + val)
			}
		}
	}
	add(c.Estimate != vars()["estimate_default"], "estimate", c.Estimate)
	add(c.Procs != 0, "procs", strconv.Itoa(c.Procs))
	add(c.OnOverrun != "kill", "overrun", c.OnOverrun)
	add(c.Clamp, "clamp", "")
	add(c.From != "", "from", c.From)
	add(c.To != "", "to", c.To)
	add(c.Tau != 10, "tau", strconv.FormatFloat(c.Tau, 'g', -1, 64))
	add(c.Deadline != "none", "deadline", c.Deadline)
	add(c.Deadline != "none" || c.DeadlineFactor != "2-4", "factor", c.DeadlineFactor)
	add(c.Deadline != "none" || c.DeadlineFraction != 1, "fraction", strconv.FormatFloat(c.DeadlineFraction, 'g', -1, 64))
	add(c.Seed != 1, "seed", strconv.FormatUint(c.Seed, 10))
	add(c.Power != "", "power", strings.ReplaceAll(c.Power, ":", "-"))
	add(c.PowerCap != "", "power-cap", strings.NewReplacer(",", "_", "@", "at", " ", "").Replace(c.PowerCap))
	add(c.Carbon != "", "carbon", strings.TrimSuffix(filepath.Base(c.Carbon), filepath.Ext(c.Carbon)))
	add(c.Price != "", "price", strings.TrimSuffix(filepath.Base(c.Price), filepath.Ext(c.Price)))
	add(c.CarbonDelay != "", "carbon-delay", strings.ReplaceAll(c.CarbonDelay, ":", "-"))
	add(c.SleepAfter != "", "sleep-after", strings.ReplaceAll(c.SleepAfter, ":", "-"))
	add(c.NodePlanner != "auto", "node-planner", c.NodePlanner)
	if len(c.Nodes) > 0 {
		// A platform of nodes (--nodes, --slurm-nodes): a digest of its
		// groups, so that a node run and a pool run of one trace and
		// policy do not share a folder.
		sum := sha256.Sum256([]byte(strings.Join(c.Nodes, "\x00")))
		add(true, "nodes", hex.EncodeToString(sum[:4]))
	}
	if len(c.Reservation) > 0 || c.Events != "" || c.Failures != "" {
		// Reservations and file names make poor folder names: a digest.
		sum := sha256.Sum256([]byte(strings.Join(append(append([]string(nil), c.Reservation...), "events="+c.Events, "failures="+c.Failures), "\x00")))
		add(true, "avail", hex.EncodeToString(sum[:4]))
	}
	add(c.OnFailure != "kill", "on-failure", c.OnFailure)
	if c.SlurmConf != "" {
		add(true, "slurm-conf", strings.TrimSuffix(filepath.Base(c.SlurmConf), ".conf"))
	} else if len(c.Partition) > 0 {
		sum := sha256.Sum256([]byte(strings.Join(c.Partition, "\x00")))
		add(true, "partitions", hex.EncodeToString(sum[:4]))
	}
	return b.String()
}

// checkProcs checks a --procs flag (0: the trace header's MaxProcs).
func checkProcs(n int) error {
	if n < 0 || n > platform.MaxCPUs {
		return usageError{fmt.Errorf("--procs %d: want 1..%d (or leave it out for the header's MaxProcs)", n, platform.MaxCPUs)}
	}
	return nil
}

// usageError marks errors of the command line (exit status 2).
type usageError struct{ error }

// Main runs the command line args (without the program name) and returns
// the exit status.
func Main(args []string, stdout, stderr io.Writer) (status int) {
	var spec any = &cliSpec{}
	if len(args) > 0 && args[0] == "run" {
		// The run command alone: the same flags, checks and messages
		// (TestRunSpecSameMessages), and about 2 ms less at every start
		// than building the model of every command (docs/performance.md).
		spec = &runLine{}
	}
	return mainWith(args, stdout, stderr, &globals{stdout: stdout, stderr: stderr}, true, spec)
}

// runLine is the command line of `schedlab run` (Main): cliSpec's run
// command alone (the same flags and checks), so that a run does not
// build the model of every command.
type runLine struct {
	Run         runCmd      `cmd:"" help:"Simulate an SWF trace on one cluster under a queue policy."`
	VersionFlag versionFlag `name:"version" help:"Print the version."`
}

// mainWith runs args with the command line spec (a *cliSpec or a
// *runLine).
func mainWith(args []string, stdout, stderr io.Writer, g *globals, signals bool, spec any) (status int) {
	exited := false
	parser, err := kong.New(spec,
		kong.Name("schedlab"),
		kong.Description("A fast, deterministic laboratory for grid and HPC job-scheduling policies."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { exited, status = true, code }),
		kong.UsageOnError(),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Bind(g),
		expandVars(vars()),
		// The run command's text on the policy flags is written only
		// when some help is shown (--help, or the usage after an error):
		// it costs about 0.4 ms, at every start if built with the model.
		kong.Help(func(o kong.HelpOptions, ctx *kong.Context) error {
			for _, n := range ctx.Model.Children {
				if n.Name == "run" && n.Detail == "" {
					n.Detail = policyFlagHelp()
				}
			}
			return kong.DefaultHelpPrinter(o, ctx)
		}),
	)
	if err != nil {
		fmt.Fprintf(stderr, "schedlab: internal error: %v\n", err)
		return 1
	}
	if len(args) > 0 && args[0] == "help" {
		args = append(append([]string(nil), args[1:]...), "--help")
	}
	// The parser's cost grows with the square of the arguments it reads
	// (args.go): the whole line is bounded, run's --reservation flags
	// are read apart, and what is left for the parser is bounded.
	var resv repeated
	err = checkArgCount(args)
	if err == nil {
		args, g.policyFlags, err = takePolicyFlags(args)
	}
	if err == nil {
		args, resv, err = takeRepeated(args, "run", "reservation", avail.MaxWindows, "engine.MaxWindows")
	}
	if err == nil {
		err = checkParsedArgs(args)
	}
	if err == nil {
		args, err = foldEnumFlags(parser.Model, args)
	}
	if err != nil {
		fmt.Fprintf(stderr, "schedlab: %v\n", err)
		fmt.Fprintln(stderr, "Run 'schedlab --help' for usage.")
		return 2
	}
	ctx, err := parser.Parse(args)
	if exited { // --help
		return status
	}
	if err == nil {
		err = setRepeated(ctx, resv)
	}
	if err != nil {
		fmt.Fprintf(stderr, "schedlab: %v\n", err)
		fmt.Fprintln(stderr, "Run 'schedlab --help' for usage.")
		return 2
	}
	if signals {
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		done := make(chan struct{})
		defer func() { signal.Stop(sigs); close(done) }()
		go func() {
			select {
			case sig := <-sigs:
				os.Exit(g.interrupted(sig))
			case <-done:
			}
		}()
	}
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "schedlab: internal error (a bug; please report it with the command line): %v\n", v)
			status = 3
		}
	}()
	defer g.releaseLocks()
	if err := ctx.Run(g); err != nil {
		fmt.Fprintf(stderr, "schedlab: %v\n", err)
		return exitStatus(err)
	}
	return 0
}

// exitStatus is the status of a failed command: 2 for a wrong command
// line, 3 for a bug (a panic), 1 for everything else (docs/limits.md).
func exitStatus(err error) int {
	var ue usageError
	var pe *sweep.PanicError
	var we *experiment.WindowError
	var ae *experiment.AvailError
	var pte *experiment.PartitionError
	switch {
	case errors.As(err, &ue), errors.As(err, &we), errors.As(err, &ae), errors.As(err, &pte):
		return 2
	case errors.As(err, &pe):
		return 3
	}
	return 1
}

type runCmd struct {
	Trace      string  `required:"" placeholder:"FILE" help:"SWF trace (plain or .gz): a path, or the bare name of an embedded trace or of one in $$SCHEDLAB_TRACES (docs/traces.md lists the places searched)."`
	Policy     string  `required:"" placeholder:"NAME" help:"Queue policy: ${queue_policies}; or a policy of the hetero model on the trace's machine: ${hetero_only} (see 'schedlab policies')."`
	Estimate   string  `default:"${estimate_default}" enum:"${estimates}" help:"Runtime estimates the scheduler sees: request (SWF requested time; the runtime if unknown), exact, tsafrir (the request; a job without one gets a request drawn from Tsafrir's model of user estimates, seeded by --seed) or predict (system-generated predictions, EASY++: --predictor, --correction)."`
	Predictor  string  `default:"last2" placeholder:"last2|avg:K" help:"--estimate predict: a job's prediction is the mean runtime of its user's last two (last2) or last K (avg:K) completed jobs, at most its request."`
	Correction string  `default:"increments" enum:"increments,request" help:"--estimate predict: a job that outlives its prediction gets a longer one in the published steps (increments) or its request."`
	Procs      int     `placeholder:"N" help:"Machine size (default: the trace header's MaxProcs)."`
	OnOverrun  string  `default:"kill" enum:"kill,continue" help:"A job running past its requested time is killed at the limit (kill) or runs on (continue)."`
	Clamp      bool    `help:"Clamp jobs larger than the machine to its size instead of rejecting them."`
	From       string  `placeholder:"WHEN" help:"Simulate only the jobs submitted from WHEN on: a date (YYYY-MM-DD[THH:MM[:SS]], in the trace's time zone; needs the header's UnixStartTime) or seconds since the trace's start. The window's jobs start on an empty machine."`
	To         string  `placeholder:"WHEN" help:"Simulate only the jobs submitted before WHEN (as --from)."`
	Tau        float64 `default:"10" help:"Bounded-slowdown threshold in seconds."`
	Out        string  `placeholder:"DIR" help:"Output folder for jobs.csv and summary.json (default: schedlab-out/<trace>-<policy>, then every option not at its default, e.g. -order=sjf; a rerun replaces the results there)."`
	NoOut      bool    `help:"Write no files; print the summary only."`
	Report     bool    `help:"Also write DIR/report.html, a self-contained page of the run (as 'schedlab report DIR')."`
	SWF        bool    `name:"swf" help:"Also write the simulated schedule as DIR/schedule.swf (simulated waits in field 3)."`
	Check      bool    `help:"Validate the produced schedule with an independent checker (capacity, start >= submit, durations)."`
	JSON       bool    `name:"json" help:"Print the summary as JSON instead of a table."`
	Threads    bool    `help:"Also write DIR/threads.csv, one row per thread (--policy matrix)."`
	Planned    bool    `help:"Also write DIR/planned.csv: every reservation a backfilling policy makes or moves (job, time, planned start); the report marks each job's last planned start on its Gantt chart."`

	Deadline         string  `default:"none" enum:"${deadline_rules}" group:"deadlines" help:"Derive deadlines: none, estimate (submit + s x the estimate the scheduler sees) or runtime (submit + s x the actual runtime)."`
	DeadlineFactor   string  `default:"2-4" placeholder:"S|MIN-MAX" group:"deadlines" help:"The factor s: a number, or a range MIN-MAX it is drawn from uniformly per job (default 2-4)."`
	DeadlineFraction float64 `default:"1" group:"deadlines" help:"Fraction of the jobs that get a deadline (0..1)."`
	Seed             uint64  `default:"1" group:"deadlines" help:"Seed of the random draws: deadlines, tabu's random machine order, --estimate tsafrir's requests, --resample."`
	Resample         string  `default:"none" enum:"${resample_methods}" help:"Run a resampled trace instead of the trace: none or user-weeks (the trace's user-weeks drawn at random, seeded by --seed and --replication; see docs/workloads.md)."`
	Replication      int     `default:"0" help:"The replication whose random streams are used (--resample, --estimate tsafrir): 0, 1, ... as in a sweep."`

	Set         []string `sep:"none" placeholder:"NAME=VALUE" help:"Set an option of the policy (repeatable; its options: 'schedlab policies'), e.g. --set order=sjf."`
	Metric      []string `sep:"none" placeholder:"NAME" help:"Also measure the declared metric NAME (repeatable), one that is off by default (docs/extending.md): shown after the summary and in summary.json's metrics."`
	MetricsBy   string   `name:"metrics-by" enum:",user,group,qos,nodegroup" default:"" placeholder:"user|group|qos|nodegroup" help:"Also group the jobs by user, group or qos (SWF fields 12, 13, 15; trace import puts the QOS in 15), or on a platform of nodes by the node group they ran on (a job on several groups' nodes apart), and give each group's metrics (jobs ended, mean and max wait, mean response, mean bounded slowdown, share of the CPU time), named by the trace's header where it names them: summary.json's metrics_by, the printed summary (the 20 with the most jobs), the report."`
	Nodes       []string `sep:"none" placeholder:"NAMES:cores=N[:...]" help:"A node group (repeatable): the cluster becomes a platform of nodes, NAMES:cores=N[:sockets=S][:threads=T][:mem=SIZE][:gres=NAME[:TYPE]=COUNT[,...]][:features=F[,...]][:weight=W], NAMES in Slurm's hostlist syntax (gpu[01-32]). Jobs ask for nodes, tasks, memory and GRES (a job table's requests; an SWF job's processors as tasks of one CPU); jobs.csv gains allocated_nodes; not with --procs (docs/nodes.md)."`
	NodePlanner string   `name:"node-planner" default:"auto" enum:"auto,counts,nodes" help:"On --nodes, how fcfs, firstfit, easy, conservative and backfill plan: auto (by counts, the pool's policy over the nodes' cores, when every job asks for cores alone: tasks of one CPU and nothing else; else on nodes), counts (or an error saying why not) or nodes (the node version, always) (docs/nodes.md)."`
	Power       string   `placeholder:"IDLE_W:COMPUTE_W" help:"A power model: watts a CPU draws idle and running a job (e.g. 95:190.74); summary.json gains energy (total_j, kwh, mean and peak watts), the folder energy.csv (the power at every change), jobs.csv's consumed_energy each job's joules above idle (docs/energy.md). With power states IDLE_W:COMPUTE_W:OFF_W:ON_S:ON_J:OFF_S:OFF_J (watts off, seconds and joules of switching on and off: Batsim's 95:190.74:9.75:152:19030:6.1:620), for --sleep-after."`
	PowerCap    string   `name:"power-cap" placeholder:"W|W@A-B,..." help:"A power cap (needs --power): a constant W watts for the whole machine, or windows W@A-B (W watts over [A, B) seconds, comma-separated, at most 1000) with at most one bare W, the cap outside them (none without it). A job starts only if the power stays within the cap through its estimated end; the kernel refuses any start that would break it. summary.json's energy gains cap (docs/energy.md, Power caps)."`
	SleepAfter  string   `name:"sleep-after" placeholder:"T[:keep=K]" help:"The idle sleeper (needs --power with power states): switch a CPU off once idle T seconds, switch CPUs on when the waiting jobs need more than are idle or switching on, keep at least K on; summary.json's energy gains states (switches, CPU-seconds off, joules switching) (docs/energy.md)."`

	Carbon      string `placeholder:"FILE" group:"carbon" help:"A carbon intensity signal, gCO2/kWh: a CSV of TIME,VALUE rows (seconds from the trace's start, the first at 0; each value holds until the next row; a last row repeat,PERIOD repeats them); with --power, summary.json's energy gains carbon_kg (docs/energy.md)."`
	Price       string `placeholder:"FILE" group:"carbon" help:"A price signal, currency per kWh, in --carbon's format; with --power, summary.json's energy gains cost."`
	CarbonDelay string `name:"carbon-delay" placeholder:"MAX_S[:EST_S]" group:"carbon" help:"Carbon-aware delay (needs --carbon): hold each job (with EST_S, each job whose estimate is at most EST_S seconds) back from the policy until the first time the intensity is at the lowest it takes within MAX_S seconds of the submission (docs/energy.md)."`

	Reservation []string `sep:"none" placeholder:"START:END:CPUS" group:"availability" help:"An advance reservation or maintenance window (repeatable): CPUS (a count N: CPUs 0..N-1; or ids such as 0-49) are unavailable over [START, END), START and END in seconds since the trace's start or as dates in its zone as --from takes them (1996-10-01T00:00:00:1996-10-01T06:00:00:50), and no job is planned across it (docs/availability.md); on a platform of nodes (--nodes) START:END:NODES, NODES a hostlist (n[1-4]) or ALL (docs/nodes.md)."`
	Events      string   `placeholder:"FILE" group:"availability" help:"Failures from a file of Batsim-style external events, JSON lines {\"timestamp\": T, \"type\": \"machine_unavailable\"|\"machine_available\", \"resources\": \"0-49\"} (on a platform of nodes, resources a hostlist: \"n[1-4]\")."`
	Failures    string   `placeholder:"MTBF:MTTR[:GROUP]" group:"availability" help:"Generated failures: each group of GROUP CPUs (on a platform of nodes, GROUP nodes; default: the whole machine) is up for exponential times of mean MTBF seconds and down for exponential times of mean MTTR, seeded by --seed and --replication."`
	OnFailure   string   `default:"kill" enum:"kill,requeue" group:"availability" help:"A job on a CPU (or node) that goes down ends then, COMPLETED_KILLED (kill), or goes back to the queue at its place to run again (requeue)."`

	SlurmConf  string   `name:"slurm-conf" placeholder:"FILE" group:"partitions" help:"Take the machine size and the partitions from a site's slurm.conf, on the pool of CPUs: the nodes become consecutive CPUs in the file's order, each partition its nodes' CPUs with its MaxTime, AllowAccounts and AllowQos (when they are numbers, as a trace's are) and Default; what the pool leaves out (whole nodes, memory, GRES, PriorityTier, ...) and every key not modelled is said on stderr (docs/slurm.md). Not with --partition or --procs."`
	SlurmNodes bool     `name:"slurm-nodes" group:"partitions" help:"With --slurm-conf: the platform is the file's nodes (NodeName lines: CPUs, Sockets, CoresPerSocket, ThreadsPerCore, RealMemory, Gres, Feature, Weight) as --nodes groups, not a pool of CPUs, and its partitions (PartitionName lines: Nodes, MaxTime, Default, numeric AllowAccounts and AllowQos) partitions of those nodes; what is left out is said on stderr (docs/nodes.md)."`
	SlurmQOS   string   `name:"slurm-qos" placeholder:"FILE" group:"partitions" help:"With --policy slurm: the QOS limits and priorities of 'sacctmgr show qos --parsable2' output (Name, Priority, MaxJobsPU, MaxSubmitPU, MaxTRESPU and GrpTRES cpu, mem and gres/gpu, MaxWall) as the policy's qos_limits and (priority/multifactor) qos_priority options; QOS names are matched to the trace's by its header's Queue lines (or are numbers); what is left out is said on stderr (docs/slurm.md)."`
	Partition  []string `sep:"none" placeholder:"NAME:CPUS[:LIMITS]" group:"partitions" help:"A partition (repeatable): NAME (a number of SWF field 16, or a name of the header's Partition lines) runs its jobs on CPUS only (a count N: CPUs 0..N-1; or ids such as 50-99), each partition in its own queue; limits :maxtime=S, :maxcpus=N, :users=U,..., :accounts=G,..., :qos=Q,... refuse jobs at submission; :default takes the jobs of unknown partition (docs/partitions.md). With --nodes a partition is a set of nodes: NAME:nodes=HOSTLIST[:LIMITS] (docs/nodes.md)."`
}

// vars are the names the flags' help and enumerations show, from the
// registry and the typed option lists.
func vars() kong.Vars {
	// bench times the queue policies that fix their own reservation depth
	// (backfill with a depth is easy or conservative again).
	var simple []string
	for _, p := range registry.Policies(registry.ModelCluster, registry.KindQueue) {
		if !p.HasOption("depth") {
			simple = append(simple, p.Name)
		}
	}
	est := workload.EstimateNames()
	return kong.Vars{
		"k8s_image":        launch.DefaultImage,
		"k8s_volume":       launch.DefaultVolume,
		"k8s_mount":        launch.DataMount,
		"hetero_only":      strings.Join(experiment.HeteroOnlyPolicies(), ", "),
		"deadline_rules":   strings.Join(workload.DeadlineBases(), ","),
		"queue_policies":   strings.Join(registry.Names(registry.ModelCluster, registry.KindQueue), ", "),
		"simple_policies":  strings.Join(simple, ","),
		"estimates":        strings.Join(est, ","),
		"estimate_default": est[0],
		"resample_methods": strings.Join(resample.Methods, ","),
		"gantt_cpus":       strconv.Itoa(maxGanttCPUs),
		"gantt_jobs":       strconv.Itoa(maxGanttJobs),
	}
}

// expandVars fills the ${name} placeholders of the command line's help,
// defaults, enums and placeholders from vars as soon as the model is
// built, before kong's own interpolation, which then has no variables to
// apply. (Given as kong.Vars, kong re-interpolated every variable for
// every flag with a regular expression: about 2 ms at every start.) A
// placeholder left unknown is still kong's error.
func expandVars(vars kong.Vars) kong.Option {
	var pairs []string
	for _, n := range slices.Sorted(maps.Keys(vars)) {
		pairs = append(pairs, "${"+n+"}", vars[n])
	}
	r := strings.NewReplacer(pairs...)
	return kong.PostBuild(func(k *kong.Kong) error {
		return kong.Visit(k.Model.Node, func(n kong.Visitable, next kong.Next) error {
			switch n := n.(type) {
			case *kong.Node:
				n.Help, n.Detail = r.Replace(n.Help), r.Replace(n.Detail)
			case *kong.Value:
				n.Help, n.Default, n.Enum = r.Replace(n.Help), r.Replace(n.Default), r.Replace(n.Enum)
				if n.Flag != nil {
					n.Flag.PlaceHolder = r.Replace(n.Flag.PlaceHolder)
				}
			}
			return next(nil)
		})
	})
}

// orList writes "a", "a or b", "a, b or c".
func orList(xs []string) string { return joinList(xs, " or ") }

// joinList joins xs with ", " and conj before the last: "a", "a or b",
// "a, b or c".
func joinList(xs []string, conj string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + conj + xs[len(xs)-1]
}

// runGCPercent is the garbage collector's target for 'schedlab run'
// (unless GOGC is set): a trace run streams its jobs through a live heap
// of a few MB, where the default 100 collects two or three times in a
// fifth of a second, each collection taking a core's share of marking and
// slowing the others with write barriers; at 400 an HPC2N EASY run takes
// about 6% less CPU, and the heap stays a few tens of MB.
const runGCPercent = 400

func (c *runCmd) Run(g *globals) error {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(runGCPercent)
	}
	spec, err := c.runSpec(g)
	if err != nil {
		return err
	}
	if w := partitionCountOverlaps(c.Partition); w != "" {
		say(g.stderr, w)
	}
	out := spec.Outputs.Dir
	if out != "" {
		if err := g.claimOutDir(out); err != nil {
			return err
		}
	}
	if p := experiment.NewTraceProgress(g.stderr, "run "+filepath.Base(c.Trace)+" "+c.Policy, spec.Workload); p != nil {
		spec.Outputs.Listeners = append(spec.Outputs.Listeners, p)
	}
	res, err := spec.Run()
	if err != nil {
		return err
	}
	if c.JSON {
		if err := writeJSON(g.stdout, res); err != nil {
			return err
		}
		if c.Report {
			_, err = htmlreport.WriteOpts(out, htmlreport.Options{Clock: traceClock(out)})
		}
		return err
	}
	if err := experiment.WriteSummary(g.stdout, res, spec); err != nil {
		return err
	}
	if c.Report {
		pages, err := htmlreport.WriteOpts(out, htmlreport.Options{Clock: traceClock(out)})
		if err != nil {
			return err
		}
		fmt.Fprintf(g.stdout, "wrote %s\n", pages[0])
	}
	return nil
}

// runSpec maps the flags to the run (experiment.RunSpec) and checks it
// (RunSpec.Check, every problem at once, each naming its flag). The
// flags' texts are read here (the deadline factor, --failures, the
// policy flags and --set); what the flags say beyond the spec is checked
// here too: flags that do not go with --no-out, and flags given that
// would change nothing (unusedFlags).
func (c *runCmd) runSpec(g *globals) (experiment.RunSpec, error) {
	var none experiment.RunSpec
	if !(c.Tau > 0) { // the spec's 0 is the default; the flag's is wrong
		return none, usageError{fmt.Errorf("--tau must be a positive number of seconds, got %v", c.Tau)}
	}
	if err := c.checkNoOut(); err != nil {
		return none, err
	}
	c.Policy = canonicalTracePolicy(c.Policy) // EASY is easy, in every output
	qp, qerr := experiment.LookupTracePolicy(c.Policy)
	dl, fails, err := c.randomFlags()
	if err != nil {
		return none, usageError{err}
	}
	var given map[string]string
	if qerr == nil {
		if given, err = c.policyOptions(qp, g.policyFlags); err != nil {
			return none, usageError{err}
		}
	}
	est, err := workload.ParseEstimate(c.Estimate)
	if err != nil {
		return none, usageError{err}
	}
	if err := c.readSlurmFiles(g, given); err != nil {
		return none, err
	}
	out := c.Out
	if out == "" && !c.NoOut && qerr == nil {
		out = filepath.Join("schedlab-out", traceStem(c.Trace)+"-"+c.Policy+policyVariant(qp, given, g.policyFlags)+c.variant())
	}
	c.slurmClock(given)
	spec := experiment.RunSpec{
		Workload: experiment.WorkloadSpec{Trace: c.Trace, From: c.From, To: c.To, Resample: c.Resample, Seed: c.Seed, Rep: c.Replication,
			Estimate: est, Deadlines: dl},
		Platform: experiment.PlatformSpec{Procs: c.Procs, Clamp: c.Clamp, Continue: c.OnOverrun == "continue", Partitions: c.Partition, Power: c.Power, PowerCap: c.PowerCap, Carbon: c.Carbon, Price: c.Price, Nodes: c.Nodes,
			Avail: experiment.AvailSpec{Reservations: c.Reservation, Events: c.Events, Failures: fails, OnFailure: c.OnFailure}},
		Policy:  experiment.PolicySpec{Name: c.Policy, Options: given, Predictor: c.Predictor, Correction: c.Correction, CarbonDelay: c.CarbonDelay, Sleep: c.SleepAfter, NodePlanner: c.NodePlanner},
		Outputs: experiment.OutputSpec{Dir: out, SWF: c.SWF, Check: c.Check, Threads: c.Threads, Planned: c.Planned, Metrics: c.Metric, Tau: c.Tau, By: c.MetricsBy},
	}
	errs := []error{spec.Check()}
	if qerr == nil {
		errs = append(c.unusedFlags(qp.Model == registry.ModelHetero || seededPolicy(c.Policy, given), dl, fails), errs...)
	}
	if err := flagProblems(errors.Join(errs...), qp, g.policyFlags); err != nil {
		return none, usageError{err}
	}
	return spec, nil
}

// flagProblems is err (RunSpec.Check's problems) with a problem of the
// policy's options naming the flag that gave the option in error
// (--order: option order: ...).
func flagProblems(err error, qp registry.Entry, flags []flagValue) error {
	if err == nil {
		return nil
	}
	var out []error
	for _, p := range experiment.Problems(err) {
		var oe *option.Error
		e := error(p)
		if p.Setting == "--set" && errors.As(p, &oe) {
			for _, fv := range flags {
				if o, ok := qp.Option(oe.Name); ok && o.Flag == fv.name {
					e = fmt.Errorf("--%s: %w", fv.name, p)
					break
				}
			}
		}
		out = append(out, e)
	}
	return errors.Join(out...)
}

// checkNoOut checks the flags that need an output folder against
// --no-out.
func (c *runCmd) checkNoOut() error {
	if c.Report && c.NoOut {
		return usageError{fmt.Errorf("--report needs an output folder (not --no-out)")}
	}
	if c.NoOut {
		for _, f := range []struct {
			name string
			set  bool
		}{{"--out", c.Out != ""}, {"--swf", c.SWF}, {"--check", c.Check}, {"--threads", c.Threads}, {"--planned", c.Planned}} {
			if f.set {
				return usageError{fmt.Errorf("--no-out writes no files: %s does not go with it", f.name)}
			}
		}
	}
	return nil
}

// randomFlags reads the deadline and failure flags.
func (c *runCmd) randomFlags() (workload.DeadlineRule, *avail.Failures, error) {
	dl, err := c.deadlineRule()
	if err != nil {
		return dl, nil, err
	}
	fails, err := c.failures()
	return dl, fails, err
}

// seededPolicy reports whether the trace policy draws from the run's
// seed and replication: the slurm policy with a sched_latency.
func seededPolicy(name string, given map[string]string) bool {
	if name != "slurm" {
		return false
	}
	x, err := strconv.ParseFloat(given["sched_latency"], 64)
	return err == nil && x > 0
}

// unusedFlags are the flags given that would change nothing: a seed,
// a replication, predictions or failure handling with nothing to apply
// them to. (A RunSpec has no notion of a setting given: these are the
// command line's.)
func (c *runCmd) unusedFlags(seeded bool, dl workload.DeadlineRule, fails *avail.Failures) []error {
	var errs []error
	if c.OnFailure != "kill" && c.Events == "" && fails == nil {
		errs = append(errs, fmt.Errorf("--on-failure %s needs failures (--events or --failures)", c.OnFailure))
	}
	random := c.Resample != resample.Methods[0] || c.Estimate == workload.EstimateTsafrir.String() || fails != nil
	if c.Seed != 1 && dl.Base == workload.DeadlineNone && !seeded && !random {
		errs = append(errs, fmt.Errorf("--seed draws deadlines (--deadline estimate or runtime), tsafrir requests (--estimate tsafrir), failures (--failures) or a resampled trace (--resample), or seeds a policy of the hetero model or the slurm policy's sched_latency; --policy %s without them uses no seed", c.Policy))
	}
	if c.Estimate != workload.EstimatePredict.String() {
		for _, f := range []struct{ name, v, def string }{{"--predictor", c.Predictor, "last2"}, {"--correction", c.Correction, "increments"}} {
			if f.v != f.def {
				errs = append(errs, fmt.Errorf("%s is only for --estimate predict (the estimates are %s)", f.name, c.Estimate))
				break
			}
		}
	}
	if c.Replication != 0 && !random && !seeded {
		errs = append(errs, fmt.Errorf("--replication chooses the random streams of --resample, --estimate tsafrir and --failures; without them it changes nothing"))
	}
	return errs
}

type traceCmd struct {
	Info   traceInfoCmd   `cmd:"" help:"Job count, skipped jobs and why, time span, largest job, offered load."`
	Repeat traceRepeatCmd `cmd:"" help:"Write a long trace made of copies of a real one, shifted in time (for memory and speed tests)."`
	Import traceImportCmd `cmd:"" help:"Write an SWF trace from a site's Slurm accounting (sacct --parsable2 or --json output), to simulate its real history, or from a Batsim workload."`
	Export traceExportCmd `cmd:"" help:"Write an SWF trace as a Batsim workload (JSON, delay profiles)."`
	Synth  traceSynthCmd  `cmd:"" help:"Write an SWF trace of a synthetic workload model (lublin: Lublin and Feitelson's rigid parallel jobs)."`
	Make   traceMakeCmd   `cmd:"" help:"Write an SWF trace from a short list of jobs, one a line: SUBMIT RUNTIME CPUS [REQUEST] (small traces by hand, examples/teaching)."`
}

type traceRepeatCmd struct {
	File  string  `arg:"" name:"file" help:"SWF trace to repeat (path or bare name)."`
	Times int     `required:"" help:"Number of copies."`
	Gap   float64 `default:"0" help:"Seconds between the last submission of a copy and the first of the next."`
	Out   string  `required:"" placeholder:"PATH" help:"Output SWF file (.gz to compress)."`
}

func (c *traceRepeatCmd) Run(g *globals) error {
	if err := workload.CheckRepeat(c.Times, c.Gap); err != nil {
		return usageError{err}
	}
	if err := g.claimOutDir(filepath.Dir(c.Out)); err != nil {
		return err
	}
	n, err := workload.Repeat(c.File, c.Times, c.Gap, c.Out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.stdout, "wrote %s: %d records (%d copies)\n", c.Out, n, c.Times)
	return err
}

type traceInfoCmd struct {
	Files []string `arg:"" name:"file" help:"SWF traces (paths or bare names)."`
	Procs int      `placeholder:"N" help:"Machine size (default: the header's MaxProcs)."`
	Clamp bool     `help:"Clamp jobs larger than the machine instead of rejecting them."`
}

func (c *traceInfoCmd) Run(g *globals) error {
	if err := checkProcs(c.Procs); err != nil {
		return err
	}
	for i, name := range c.Files {
		if i > 0 {
			fmt.Fprintln(g.stdout)
		}
		rd, err := workload.OpenTrace(name)
		if err != nil {
			return err
		}
		st, err := swf.ComputeStats(rd, swf.Options{MaxProcs: c.Procs, Clamp: c.Clamp})
		rd.Close()
		if err != nil {
			return err
		}
		if err := st.WriteText(g.stdout); err != nil {
			return err
		}
	}
	return nil
}

type policiesCmd struct{}

// Run lists the registry: per model and kind of policy, one line per
// policy, then the options they take.
func (policiesCmd) Run(g *globals) error {
	for _, m := range registry.Models() {
		for _, k := range m.Kinds {
			var where []string
			if k.Flag != "" {
				where = append(where, "run "+k.Flag)
			}
			where = append(where, "scenario "+k.Key)
			if !m.Implemented {
				where = append(where, "not in scenario files yet")
			}
			fmt.Fprintf(g.stdout, "%s model, %s (%s):\n", m.Name, k.Title, strings.Join(where, ", "))
			tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
			ps := registry.Policies(m.Name, k.Name)
			for _, p := range ps {
				fmt.Fprintf(tw, "  %s\t%s\n", p.Name, p.Summary)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			opts := optionRows(m.Name, k.Name)
			if k.Name == m.Kinds[len(m.Kinds)-1].Name {
				for _, o := range m.Options {
					opts = append(opts, optionRow(o, ""))
				}
			}
			if len(opts) > 0 {
				fmt.Fprintln(g.stdout, "  options:")
				tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
				for _, r := range opts {
					fmt.Fprintf(tw, "    %s\t%s\n", r[0], r[1])
				}
				if err := tw.Flush(); err != nil {
					return err
				}
			}
			fmt.Fprintln(g.stdout)
		}
	}
	return nil
}

// optionRows lists the options of a kind's policies, each once, with the
// policies that take it when not all do.
func optionRows(model, kind string) [][2]string {
	all := len(registry.Policies(model, kind))
	var rows [][2]string
	for _, ko := range registry.KindOptions(model, kind) {
		by := ""
		if len(ko.Policies) < all {
			by = strings.Join(ko.Policies, ", ")
		}
		row := optionRow(ko.Option, by)
		for _, p := range registry.Policies(model, kind) {
			if o, ok := p.Option(ko.Name); ok && len(o.Values) < len(ko.Values) {
				row[1] += fmt.Sprintf(" (%s: %s only)", p.Name, strings.Join(o.Values, ", "))
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func optionRow(o registry.Option, by string) [2]string {
	var t string
	switch o.Type {
	case registry.TypeEnum:
		t = strings.Join(o.Values, " | ")
	case registry.TypeBool, registry.TypeText:
		t = o.Type.String()
	default:
		t = o.Type.String()
		if !math.IsInf(o.Range.Min, -1) || !math.IsInf(o.Range.Max, 1) {
			t += " " + o.Range.String() // "number >= 0"; an unbounded number is just "number"
		}
	}
	switch {
	case o.Required():
		t += ", required"
	case o.Default == "":
		t += ", default none"
	default:
		t += ", default " + o.Default
	}
	if by != "" {
		t += "; " + by + " only"
	}
	return [2]string{o.Key, t + ": " + o.Doc}
}

type versionCmd struct{}

func (versionCmd) Run(g *globals) error {
	_, err := fmt.Fprintf(g.stdout, "schedlab %s\n", Version)
	return err
}

// maxTabuIterations bounds --tabu-iterations (each iteration may
// re-plan machines: a larger budget is a run that never ends).
const maxTabuIterations = 1_000_000

// failures reads --failures MTBF:MTTR[:GROUP] (nil when not given).
func (c *runCmd) failures() (*avail.Failures, error) {
	if c.Failures == "" {
		return nil, nil
	}
	parts := strings.Split(c.Failures, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, fmt.Errorf("--failures %q: want MTBF:MTTR[:GROUP] (seconds, seconds, CPUs per group)", c.Failures)
	}
	f := &avail.Failures{Seed: c.Seed}
	for i, dst := range []*float64{&f.MTBF, &f.MTTR} {
		x, err := strconv.ParseFloat(parts[i], 64)
		if err != nil {
			return nil, fmt.Errorf("--failures %q: %s %q is not a number", c.Failures, []string{"MTBF", "MTTR"}[i], parts[i])
		}
		*dst = x
	}
	if len(parts) == 3 {
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--failures %q: GROUP %q is not a whole number >= 1", c.Failures, parts[2])
		}
		f.GroupSize = n
	}
	if err := f.Check(max(f.GroupSize, 1)); err != nil { // the group count is checked with the machine
		return nil, fmt.Errorf("--failures %q: %w", c.Failures, err)
	}
	return f, nil
}

// deadlineRule reads the --deadline flags.
func (c *runCmd) deadlineRule() (workload.DeadlineRule, error) {
	base, err := workload.ParseDeadlineBase(c.Deadline)
	if err != nil {
		return workload.DeadlineRule{}, err
	}
	if base == workload.DeadlineNone {
		if c.DeadlineFactor != "2-4" || c.DeadlineFraction != 1 {
			return workload.DeadlineRule{}, errors.New("--deadline-factor and --deadline-fraction need --deadline estimate or runtime")
		}
		return workload.DeadlineRule{Seed: c.Seed}, nil
	}
	lo, hi, err := workload.ParseFactorRange(c.DeadlineFactor)
	if err != nil {
		return workload.DeadlineRule{}, fmt.Errorf("--deadline-factor: %w", err)
	}
	if !(c.DeadlineFraction >= 0 && c.DeadlineFraction <= 1) {
		return workload.DeadlineRule{}, fmt.Errorf("--deadline-fraction %g: want a number in [0, 1]", c.DeadlineFraction)
	}
	return workload.DeadlineRule{Base: base, Min: lo, Max: hi, Fraction: c.DeadlineFraction, Seed: c.Seed}, nil
}
