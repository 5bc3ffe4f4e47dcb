package cli

import (
	"errors"
	"fmt"

	"github.com/schedlab/schedlab/platform/slurmconf"
)

// readSlurmConf sets the machine size and the partitions from
// --slurm-conf, on the pool of CPUs, and says on stderr what the pool
// leaves out.
func (c *runCmd) readSlurmConf(g *globals) error {
	if c.SlurmConf == "" {
		return nil
	}
	if len(c.Partition) > 0 || c.Procs != 0 {
		return usageError{errors.New("--slurm-conf gives the machine size and the partitions: leave out --partition and --procs")}
	}
	cfg, err := slurmconf.ReadFile(c.SlurmConf)
	if err != nil {
		return err
	}
	pool := cfg.CPUPool()
	c.Procs, c.Partition = pool.Procs, pool.Partitions
	for _, n := range pool.Notes {
		fmt.Fprintf(g.stderr, "schedlab: %s: %s\n", c.SlurmConf, n)
	}
	if n := len(cfg.Warnings); n > 0 {
		fmt.Fprintf(g.stderr, "schedlab: %s: %d key(s) not modelled or without effect on scheduling ('schedlab slurm-conf %s' lists them)\n", c.SlurmConf, n, c.SlurmConf)
	}
	return nil
}
