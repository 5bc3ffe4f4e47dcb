package golden

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"
)

// TestKTHPower pins a run with the two-number power model, `run --power
// 95:190.74` on KTH under EASY: summary.json by key, and energy.csv and
// jobs.csv (consumed_energy among its columns) by digest. The power
// states (the seven-number form) and the idle sleeper leave this output
// as it was: the digests were taken from the binary before them, and
// agree with it byte for byte.
func TestKTHPower(t *testing.T) {
	out := filepath.Join(t.TempDir(), "kth-power")
	schedlab(t, "run", "--trace", kthTrace, "--policy", "easy", "--power", "95:190.74", "--out", out)
	golden := filepath.Join("testdata", "kth-power")
	summary := readFile(t, filepath.Join(out, "summary.json"))
	var digests []string
	for _, f := range []string{"energy.csv", "jobs.csv"} {
		sum := sha256.Sum256(readFile(t, filepath.Join(out, f)))
		digests = append(digests, f+" "+hex.EncodeToString(sum[:]))
	}
	got := strings.Join(digests, "\n") + "\n"
	if *update {
		writeFile(t, filepath.Join(golden, "summary.json"), summary)
		writeFile(t, filepath.Join(golden, "sha256.txt"), []byte(got))
		return
	}
	compareJSON(t, "kth-power/summary.json", readFile(t, filepath.Join(golden, "summary.json")), summary, nil)
	if want := string(readFile(t, filepath.Join(golden, "sha256.txt"))); got != want {
		t.Errorf("kth-power: digests\n%s want\n%s", got, want)
	}
}
