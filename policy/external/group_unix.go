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

// endGroup kills what is left of the group of a process that has
// exited: the children it started and left running (which would keep
// the run's standard error open, and run on after schedlab).
func endGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
