package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/schedlab/schedlab/report/calibrate"
)

// calibrateCmd compares a simulated run with the recorded one.
type calibrateCmd struct {
	Recorded  string `arg:"" placeholder:"RECORDED" help:"The recorded run: the output folder of 'schedlab run --policy recorded' on the trace (or its jobs.csv)."`
	Simulated string `arg:"" placeholder:"SIMULATED" help:"A simulated run of the same trace: its output folder (or its jobs.csv)."`
}

// Run prints the comparison.
func (c *calibrateCmd) Run(g *globals) error {
	rec, err := readCalibrationJobs(c.Recorded)
	if err != nil {
		return err
	}
	sim, err := readCalibrationJobs(c.Simulated)
	if err != nil {
		return err
	}
	r, err := calibrate.Compare(rec, sim)
	if err != nil {
		return fmt.Errorf("calibrate %s %s: %v", c.Recorded, c.Simulated, err)
	}
	return r.WriteText(g.stdout, c.Recorded, c.Simulated)
}

// readCalibrationJobs reads DIR/jobs.csv, or the file named.
func readCalibrationJobs(path string) ([]calibrate.Job, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "jobs.csv")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return calibrate.ReadJobs(f, path)
}
