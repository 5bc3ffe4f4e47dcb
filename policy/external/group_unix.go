//go:build unix

package external

import (
	"os/exec"
	"syscall"
)

// setGroup puts the process in a group of its own, so that kill reaches
// whatever it started.
func setGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
