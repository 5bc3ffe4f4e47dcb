package cli

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/batsim"
	"github.com/schedlab/schedlab/workload/slurm"
)

type traceImportCmd struct {
	File     string `arg:"" name:"file" help:"The file to import: sacct output (--parsable2 with its header line, or --json), or a Batsim workload (JSON)."`
	From     string `required:"" enum:"sacct,batsim" help:"What FILE is: sacct (sacct --parsable2 or --json output, told apart by the content) or batsim (a Batsim workload JSON with delay profiles)."`
	Out      string `required:"" placeholder:"PATH" help:"Output file (.gz to compress): an SWF trace, or a job table (--format)."`
	Format   string `default:"auto" enum:"auto,swf,jobtable" help:"What to write: swf, or jobtable (the schedlab job table: SWF's fields and each job's request of nodes, tasks, memory, GRES and constraint, which SWF has no field for); auto: jobtable for an --out ending in .jobs or .jobs.gz, else swf."`
	Procs    int    `placeholder:"N" help:"The machine's CPUs, written as the header's MaxProcs (sacct: without it, give run --procs; batsim: default nb_res)."`
	Steps    bool   `help:"sacct: keep job steps (.batch, .extern, .N) as jobs of their own (they are left out by default: the job's line covers its allocation)."`
	TimeZone string `name:"timezone" default:"UTC" placeholder:"ZONE" help:"sacct: the time zone sacct printed its times in (an IANA name, e.g. Europe/Stockholm; sacct --parsable2 writes local times without a zone, ambiguous in the hour repeated when daylight saving time ends: export with TZ=UTC sacct if you can; --json writes epoch seconds, and the zone is only written to the header)."`
}

func (c *traceImportCmd) Run(g *globals) error {
	if c.Procs < 0 || c.Procs > platform.MaxCPUs {
		return usageError{fmt.Errorf("--procs %d: want 1..%d (or leave it out)", c.Procs, platform.MaxCPUs)}
	}
	loc, err := time.LoadLocation(c.TimeZone)
	if err != nil {
		return usageError{fmt.Errorf("--timezone %q: not a time zone name (e.g. UTC, Europe/Stockholm)", c.TimeZone)}
	}
	f, err := os.Open(c.File)
	if err != nil {
		return err
	}
	defer f.Close()
	if c.From == "batsim" {
		return c.runBatsim(g, f)
	}
	res, err := slurm.ReadSacct(f, c.File, slurm.Options{Steps: c.Steps, Location: loc})
	if err != nil {
		return err
	}
	if err := g.claimOutDir(filepath.Dir(c.Out)); err != nil {
		return err
	}
	write := func(out io.Writer) error { return res.WriteSWF(out, c.Procs, filepath.Base(c.File)) }
	if c.jobTable() {
		write = func(out io.Writer) error { return res.WriteJobTable(out, c.Procs, filepath.Base(c.File)) }
	}
	if err := writeSWFFile(c.Out, write); err != nil {
		return err
	}
	first := time.Unix(res.Header.UnixStartTime, 0).In(loc).Format("2006-01-02 15:04:05 MST")
	fmt.Fprintf(g.stdout, "imported %d jobs of %d users (first submission %s); %s\n", res.Len(), len(res.Users), first, res.SkippedText())
	if res.Renumbered {
		fmt.Fprintf(g.stdout, "the job ids are not unique integers (%s): jobs are numbered 1..N in submit order\n", res.RenumberedWhy)
	}
	if res.Ambiguous > 0 {
		fmt.Fprintf(g.stdout, "%d jobs have a local time in the hour repeated when daylight saving time ends that the order Submit <= Start <= End and Elapsed do not settle: the shortest wait was taken (export with TZ=UTC sacct ... to avoid this)\n", res.Ambiguous)
	}
	for _, k := range []struct {
		what string
		n    int
	}{{"users", len(res.Users)}, {"groups", len(res.Groups)}, {"QOS", len(res.QOS)}, {"partitions", len(res.Partitions)}} {
		if k.n > slurm.MaxHeaderNames {
			fmt.Fprintf(g.stdout, "%d %s: the header names the first %d (slurm.MaxHeaderNames), so that SWF readers read it\n", k.n, k.what, slurm.MaxHeaderNames)
		}
	}
	if c.Procs == 0 {
		fmt.Fprintln(g.stdout, "no --procs: the header has no MaxProcs; give the machine size to run with --procs")
	}
	c.requestNotices(g, res)
	_, err = fmt.Fprintf(g.stdout, "wrote %s\n", c.Out)
	return err
}

// jobTable says whether the import writes a job table.
func (c *traceImportCmd) jobTable() bool {
	switch c.Format {
	case "jobtable":
		return true
	case "auto":
		return strings.HasSuffix(c.Out, ".jobs") || strings.HasSuffix(c.Out, ".jobs.gz")
	}
	return false
}

// requestNotices says on stderr what of the jobs' requests the output
// does not hold: in SWF, what jobs ask beyond CPUs; in either, what the
// import could not read.
func (c *traceImportCmd) requestNotices(g *globals, res *slurm.Result) {
	if !res.HasRequests {
		return
	}
	if n := res.RequestCounts(); !c.jobTable() && n.Beyond > 0 {
		var what []string
		for _, k := range []struct {
			n    int64
			what string
		}{{n.GRES, "GRES (GPUs)"}, {n.MultiNode, "more than one node"}, {n.Constraint, "a feature constraint"}} {
			if k.n > 0 {
				what = append(what, fmt.Sprintf("%d %s", k.n, k.what))
			}
		}
		fmt.Fprintf(g.stderr, "schedlab: %d job(s) ask for more than CPUs (%s): SWF has no field for that and %s does not keep it; write --format jobtable (or an --out ending in .jobs) to keep it\n",
			n.Beyond, strings.Join(what, ", "), c.Out)
	}
	for _, k := range importUnreadKeys(res.Unread) {
		fmt.Fprintf(g.stderr, "schedlab: %d job(s): %s: left out of their requests\n", res.Unread[k], k)
	}
}

// importUnreadKeys are the reasons of Result.Unread, in order.
func importUnreadKeys(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// runBatsim imports a Batsim workload.
func (c *traceImportCmd) runBatsim(g *globals, f io.Reader) error {
	res, err := batsim.Read(f, c.File)
	if err != nil {
		return err
	}
	if c.Procs > 0 {
		res.Header.MaxProcs = c.Procs
	}
	if err := g.claimOutDir(filepath.Dir(c.Out)); err != nil {
		return err
	}
	write := func(out io.Writer) error { return res.WriteSWF(out, filepath.Base(c.File)) }
	if c.jobTable() {
		write = func(out io.Writer) error { return res.WriteJobTable(out, filepath.Base(c.File)) }
	}
	if err := writeSWFFile(c.Out, write); err != nil {
		return err
	}
	fmt.Fprintf(g.stdout, "imported %d jobs for %d resources\n", len(res.Records), res.Header.MaxProcs)
	if res.Renumbered {
		fmt.Fprintln(g.stdout, "the Batsim job ids were not distinct integers (after the workload prefix): jobs are numbered 1..N in submit order")
	}
	_, err = fmt.Fprintf(g.stdout, "wrote %s\n", c.Out)
	return err
}

// writeSWFFile writes path atomically through write, gzip-compressed
// for a name ending in .gz.
func writeSWFFile(path string, write func(io.Writer) error) error {
	return atomicfile.Write(path, func(file io.Writer) error {
		out := file
		var gz *gzip.Writer
		if strings.HasSuffix(path, ".gz") {
			gz, _ = gzip.NewWriterLevel(file, gzip.BestSpeed)
			out = gz
		}
		if err := write(out); err != nil {
			return err
		}
		if gz != nil {
			return gz.Close()
		}
		return nil
	})
}

type traceExportCmd struct {
	File  string `arg:"" name:"trace" help:"SWF trace (plain or .gz): a path, or the bare name of an embedded trace or of one on the lookup path."`
	To    string `required:"" enum:"batsim" help:"The format to write: batsim (a Batsim workload JSON, one delay profile per distinct run time)."`
	Out   string `required:"" placeholder:"PATH" help:"Output file (e.g. workload.json)."`
	Procs int    `placeholder:"N" help:"nb_res, the machine's resources (default: the trace header's MaxProcs)."`
}

func (c *traceExportCmd) Run(g *globals) error {
	if err := checkProcs(c.Procs); err != nil {
		return err
	}
	rd, err := workload.OpenTrace(c.File)
	if err != nil {
		return err
	}
	defer rd.Close()
	n := c.Procs
	if n == 0 {
		n = rd.Header().MaxProcs
	}
	if n <= 0 {
		return fmt.Errorf("trace %s: its header has no MaxProcs: give the machine size with --procs", c.File)
	}
	if err := g.claimOutDir(filepath.Dir(c.Out)); err != nil {
		return err
	}
	var w batsim.Written
	err = atomicfile.Write(c.Out, func(file io.Writer) error {
		var err error
		w, err = batsim.Write(file, rd, n, "exported from "+filepath.Base(c.File)+" by schedlab trace export")
		return err
	})
	if err != nil {
		return fmt.Errorf("trace %s: %w", c.File, err)
	}
	fmt.Fprintf(g.stdout, "exported %d jobs (%d delay profiles) for %d resources", w.Jobs, w.Profiles, n)
	if w.Skipped > 0 {
		fmt.Fprintf(g.stdout, "; left out %d records without a submit time, run time or processor count", w.Skipped)
	}
	_, err = fmt.Fprintf(g.stdout, "\nwrote %s\n", c.Out)
	return err
}
