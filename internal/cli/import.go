package cli

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload/slurm"
)

type traceImportCmd struct {
	File     string `arg:"" name:"file" help:"The accounting export: the output of sacct --parsable2 (or -P) with its header line."`
	From     string `required:"" enum:"sacct" help:"What FILE is: sacct (sacct --parsable2 output)."`
	Out      string `required:"" placeholder:"PATH" help:"Output SWF file (.gz to compress)."`
	Procs    int    `placeholder:"N" help:"The machine's CPUs, written as the header's MaxProcs (without it, give run --procs)."`
	Steps    bool   `help:"Keep job steps (.batch, .extern, .N) as jobs of their own (they are left out by default: the job's line covers its allocation)."`
	TimeZone string `name:"timezone" default:"UTC" placeholder:"ZONE" help:"The time zone sacct printed its times in (an IANA name, e.g. Europe/Stockholm; sacct writes local times without a zone)."`
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
	res, err := slurm.ReadSacct(f, c.File, slurm.Options{Steps: c.Steps, Location: loc})
	if err != nil {
		return err
	}
	if err := g.lockOutDir(filepath.Dir(c.Out), false); err != nil {
		return err
	}
	if err := g.useOutDir(filepath.Dir(c.Out)); err != nil {
		return err
	}
	err = atomicfile.Write(c.Out, func(file io.Writer) error {
		out := file
		var gz *gzip.Writer
		if strings.HasSuffix(c.Out, ".gz") {
			gz, _ = gzip.NewWriterLevel(file, gzip.BestSpeed)
			out = gz
		}
		if err := res.WriteSWF(out, c.Procs, filepath.Base(c.File)); err != nil {
			return err
		}
		if gz != nil {
			return gz.Close()
		}
		return nil
	})
	if err != nil {
		return err
	}
	first := time.Unix(res.Header.UnixStartTime, 0).In(loc).Format("2006-01-02 15:04:05 MST")
	fmt.Fprintf(g.stdout, "imported %d jobs of %d users (first submission %s); %s\n", len(res.Records), len(res.Users), first, res.SkippedText())
	if res.Renumbered {
		fmt.Fprintln(g.stdout, "the job ids were not unique integers (no JobIDRaw column): jobs are numbered 1..N in submit order")
	}
	if c.Procs == 0 {
		fmt.Fprintln(g.stdout, "no --procs: the header has no MaxProcs; give the machine size to run with --procs")
	}
	_, err = fmt.Fprintf(g.stdout, "wrote %s\n", c.Out)
	return err
}
