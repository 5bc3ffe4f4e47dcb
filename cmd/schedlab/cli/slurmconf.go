package cli

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/slurmconf"
)

// slurmConfCmd reads a slurm.conf and says what schedlab makes of it.
type slurmConfCmd struct {
	File string `arg:"" placeholder:"SLURM.CONF" help:"A site's slurm.conf (the files it includes are read too)."`
	Gres string `placeholder:"GRES.CONF" help:"Also read a gres.conf and compare each node's GRES counts with slurm.conf's."`
}

// Run prints the nodes, partitions, scheduler settings and every key
// not modelled.
func (c *slurmConfCmd) Run(g *globals) error {
	cfg, err := slurmconf.ReadFile(c.File)
	if err != nil {
		return err
	}
	if c.Gres != "" {
		f, err := os.Open(c.Gres)
		if err != nil {
			return err
		}
		defer f.Close()
		gr, err := slurmconf.ReadGres(f, c.Gres)
		if err != nil {
			return err
		}
		cfg.Warnings = append(append(cfg.Warnings, gr.Warnings...), cfg.CheckGres(gr)...)
	}
	return writeSlurmConf(g.stdout, c.File, cfg)
}

func writeSlurmConf(w io.Writer, name string, cfg *slurmconf.Config) error {
	var b strings.Builder
	ns := cfg.Nodes
	var gres []string
	for _, k := range ns.Kinds() {
		gres = append(gres, fmt.Sprintf("%s %d", k, ns.GRESTotal(k)))
	}
	fmt.Fprintf(&b, "%s: %d nodes, %d CPUs, %d MB of memory", name, ns.Len(), ns.CPUs(), ns.MemMB())
	if len(gres) > 0 {
		fmt.Fprintf(&b, ", GRES %s", strings.Join(gres, ", "))
	}
	b.WriteString("\n\nnode groups:\n")
	tw := tabwriter.NewWriter(&b, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "  nodes\tcount\tCPUs\tsockets x cores x threads\tmemory (MB)\tGRES\tfeatures\tweight")
	for i := 0; i < ns.Groups(); i++ {
		gr := ns.Group(i)
		names, _ := nodes.Compress(gr.Names)
		var gs []string
		for _, r := range gr.GRES {
			gs = append(gs, fmt.Sprintf("%s=%d", r.Kind(), r.Count))
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%d x %d x %d\t%d\t%s\t%s\t%d\n", names, len(gr.Names), gr.CPUs(), gr.Sockets, gr.CoresPerSocket, gr.ThreadsPerCore,
			gr.MemMB, dash(strings.Join(gs, ",")), dash(strings.Join(gr.Features, ",")), gr.Weight)
	}
	tw.Flush()
	if len(cfg.Partitions) > 0 {
		b.WriteString("\npartitions:\n")
		tw = tabwriter.NewWriter(&b, 2, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "  name\tnodes\tCPUs\tmax time\tdefault time\tmax nodes\ttier\toversubscribe\tallow\t")
		for _, p := range cfg.Partitions {
			cpus := 0
			for _, n := range p.Nodes {
				if id, ok := ns.Lookup(n); ok {
					cpus += ns.Node(id).CPUs()
				}
			}
			names, _ := nodes.Compress(p.Nodes)
			name := p.Name
			if p.Default {
				name += " (default)"
			}
			var allow []string
			for _, a := range []struct {
				k string
				v []string
			}{{"accounts", p.AllowAccounts}, {"groups", p.AllowGroups}, {"qos", p.AllowQos}} {
				if a.v != nil {
					allow = append(allow, a.k+"="+strings.Join(a.v, ","))
				}
			}
			maxNodes := "unlimited"
			if p.MaxNodes > 0 {
				maxNodes = fmt.Sprint(p.MaxNodes)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t\n", name, names, cpus, slurmTime(p.MaxTime), slurmTime(p.DefaultTime),
				maxNodes, p.PriorityTier, p.OverSubscribe, dash(strings.Join(allow, " ")))
		}
		tw.Flush()
	}
	fmt.Fprintf(&b, "\nscheduler: %s", cfg.SchedulerType)
	if len(cfg.SchedulerParameters) > 0 {
		fmt.Fprintf(&b, " (%s)", params(cfg.SchedulerParameters))
	}
	if cfg.SelectType != "" {
		fmt.Fprintf(&b, "; select %s", cfg.SelectType)
		if len(cfg.SelectTypeParams) > 0 {
			fmt.Fprintf(&b, " (%s)", params(cfg.SelectTypeParams))
		}
	}
	if t := cfg.Priority["PriorityType"]; t != "" {
		fmt.Fprintf(&b, "; priority %s", t)
	}
	if cfg.PreemptType != "" {
		fmt.Fprintf(&b, "; preempt %s (%s)", cfg.PreemptType, dash(cfg.PreemptMode))
	}
	b.WriteString("\n")
	if len(cfg.Warnings) > 0 {
		fmt.Fprintf(&b, "\n%d key(s) not modelled or without effect on scheduling:\n", len(cfg.Warnings))
		for _, wn := range cfg.Warnings {
			fmt.Fprintf(&b, "  %s\n", wn)
		}
	}
	b.WriteString("\n'run --slurm-conf FILE --slurm-nodes --policy slurm' runs these nodes with Slurm's scheduler settings above (docs/slurm.md, \"The slurm policy\"), the partitions above as partitions of those nodes (docs/nodes.md, \"Partitions on nodes\").\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func slurmTime(sec float64) string {
	switch {
	case sec < 0:
		return "-"
	case math.IsInf(sec, 1):
		return "UNLIMITED"
	}
	s := int64(sec)
	d, h, m, ss := s/86400, s%86400/3600, s%3600/60, s%60
	if d > 0 {
		return fmt.Sprintf("%d-%02d:%02d:%02d", d, h, m, ss)
	}
	return fmt.Sprintf("%02d:%02d:%02d", h, m, ss)
}

func params(ps []slurmconf.Param) string {
	var out []string
	for _, p := range ps {
		if p.Flag {
			out = append(out, p.Key)
		} else {
			out = append(out, p.Key+"="+p.Value)
		}
	}
	return strings.Join(out, ",")
}
