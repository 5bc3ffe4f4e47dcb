//go:build !unix

package external

import "os/exec"

func setGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }

func endGroup(cmd *exec.Cmd) {}
