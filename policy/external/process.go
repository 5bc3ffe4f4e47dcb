package external

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// start runs the command with /bin/sh -c, its standard input and output
// on pipes that take deadlines, its standard error passed through.
func (p *Client) start() error {
	p.began = true
	if p.opt.FDs != [2]int{} {
		return p.open()
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("cannot start the decision process: %v", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return fmt.Errorf("cannot start the decision process: %v", err)
	}
	cmd := exec.Command("/bin/sh", "-c", p.opt.Command)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, os.Stderr
	setGroup(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return fmt.Errorf("cannot start the decision process: %v", err)
	}
	p.cmd, p.stdin, p.stdout = cmd, inW, outR
	p.rd = bufio.NewReaderSize(outR, 1<<16)
	p.exited = make(chan error, 1)
	go func() { p.exited <- cmd.Wait() }() // reaps the process; no decision reads it
	return nil
}

// exchange writes one request and reads one reply line, each within the
// timeout. ok is false after a failure (recorded).
func (p *Client) exchange(req []byte) (line []byte, ok bool) {
	deadline := time.Now().Add(p.opt.Timeout)
	p.stdin.SetWriteDeadline(deadline)
	if _, err := p.stdin.Write(req); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			p.fail("the decision process did not read its request within %s (option timeout)", p.opt.Timeout)
		} else {
			p.fail("cannot send the request: the decision process %s", p.exitStatus())
		}
		return nil, false
	}
	p.stdout.SetReadDeadline(deadline)
	for {
		line, err := p.readLine()
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			p.fail("no reply within %s (option timeout)", p.opt.Timeout)
			return nil, false
		case err == io.EOF && len(line) > 0:
			p.fail("the reply is not a protocol message (no newline at its end; the process then closed its output): %s", quote(line))
			return nil, false
		case err == io.EOF:
			p.fail("no reply: the decision process %s", p.exitStatus())
			return nil, false
		case err != nil:
			p.fail("reading the reply: %v", err)
			return nil, false
		}
		if len(trimSpace(line)) == 0 {
			continue // blank lines are allowed between messages
		}
		return line, true
	}
}

// readLine reads one line of at most MaxLine bytes.
func (p *Client) readLine() ([]byte, error) {
	var long []byte
	for {
		frag, err := p.rd.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, frag...)
			if len(long) > MaxLine {
				return nil, fmt.Errorf("a reply line longer than %d bytes", MaxLine)
			}
			continue
		}
		if long != nil {
			return append(long, frag...), err
		}
		return frag, err
	}
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	return b
}

// exitStatus waits briefly for the process to end and says how it did.
func (p *Client) exitStatus() string {
	if p.cmd == nil {
		return p.exitStatusFDs()
	}
	select {
	case err := <-p.exited:
		p.exited <- err // for Close
		var ee *exec.ExitError
		switch {
		case err == nil:
			return "exited (status 0) before replying"
		case errors.As(err, &ee):
			return fmt.Sprintf("exited before replying (%v)", ee)
		default:
			return fmt.Sprintf("ended before replying (%v)", err)
		}
	case <-time.After(min(p.opt.Timeout, 2*time.Second)):
		return "closed its standard output without replying"
	}
}

// kill ends the process and its children at once.
func (p *Client) kill() {
	if p.stdin != nil {
		p.stdin.Close()
		p.stdout.Close()
	}
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	killGroup(p.cmd)
}

// Close ends the simulation: it sends SIMULATION_ENDS, closes the
// process's input and waits (at most the timeout) for it to exit with
// status 0, then kills what is left of its process group (children it
// left running). After a failure, or when the process does not exit in
// time, it kills the process and its group. It returns the policy's
// failure, if any; calling it again does nothing more.
func (p *Client) Close() error {
	if p.ended {
		return p.err
	}
	p.ended = true
	if p.opt.Decider != nil {
		return p.closeDecider()
	}
	if p.stdin == nil {
		return p.err
	}
	if p.err != nil {
		p.kill()
		return p.err
	}
	b := append(p.out[:0], `{"now":`...)
	b = appendFloat(b, p.now)
	b = append(b, `,"events":[`...)
	if len(p.events) > 0 { // those of the last instants, not sent
		b = append(append(b, p.events...), ',')
	}
	b = append(b, `{"timestamp":`...)
	b = appendFloat(b, p.now)
	b = append(b, `,"type":"SIMULATION_ENDS","data":{}}]}`+"\n"...)
	p.stdin.SetWriteDeadline(time.Now().Add(p.opt.Timeout))
	_, werr := p.stdin.Write(b)
	p.stdin.Close()
	if p.cmd == nil {
		p.stdout.Close()
		if werr != nil {
			p.err = fmt.Errorf("policy external: cannot send SIMULATION_ENDS: %v [fds %d,%d]", werr, p.opt.FDs[0], p.opt.FDs[1])
		}
		return p.err
	}
	select {
	case err := <-p.exited:
		p.stdout.Close()
		endGroup(p.cmd)
		switch {
		case err != nil:
			p.err = fmt.Errorf("policy %s: the decision process failed at the end of the simulation (%v) [command: %s]", p.Name(), err, p.opt.Command)
		case werr != nil:
			p.err = fmt.Errorf("policy %s: cannot send SIMULATION_ENDS: %v [command: %s]", p.Name(), werr, p.opt.Command)
		}
	case <-time.After(p.opt.Timeout):
		p.err = fmt.Errorf("policy %s: the decision process did not exit within %s after SIMULATION_ENDS (option timeout) [command: %s]", p.Name(), p.opt.Timeout, p.opt.Command)
		p.kill()
	}
	return p.err
}

// open uses two file descriptors inherited from the process that started
// schedlab instead of a command: replies are read from FDs[0], requests
// written to FDs[1]. In non-blocking mode (the Python package sets it)
// they take deadlines, so the timeout holds; in blocking mode there is no
// timeout.
func (p *Client) open() error {
	in := os.NewFile(uintptr(p.opt.FDs[0]), "replies")
	out := os.NewFile(uintptr(p.opt.FDs[1]), "requests")
	if in == nil || out == nil {
		return fmt.Errorf("file descriptors %d,%d (option fds) are not open", p.opt.FDs[0], p.opt.FDs[1])
	}
	p.stdin, p.stdout = out, in
	p.rd = bufio.NewReaderSize(in, 1<<16)
	return nil
}

// exitStatusFDs says how the other end went away (option fds).
func (p *Client) exitStatusFDs() string { return "closed its end of the protocol without replying" }

// closeDecider sends the in-process Decider the request with Ends set
// (SIMULATION_ENDS, with the events of the last instants not sent).
func (p *Client) closeDecider() error {
	if p.err != nil || !p.began {
		return p.err
	}
	r := &p.req
	r.Now, r.Begins, r.Ends = p.now, false, true
	r.Waiting, r.Running = p.waiting, len(p.running)
	if _, err := p.opt.Decider.Decide(r); err != nil {
		p.fail("at the end of the simulation: %v", err)
	}
	return p.err
}
