package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of "go test -json" (see "go doc test2json").
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string // build-output and build-fail events
	FailedBuild string // package-level fail caused by a build failure
}

// skip is a skipped test and why.
type skip struct {
	Package, Test, Reason string
}

// summary is what summarize found.
type summary struct {
	Passed, Failed, NoTests int // packages
	FailedTests             int
	Skips                   []skip
}

// OK reports whether everything passed.
func (s summary) OK() bool { return s.Failed == 0 && s.FailedTests == 0 && s.Passed+s.NoTests > 0 }

func main() {
	s, err := summarize(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	if !s.OK() {
		os.Exit(1)
	}
}

// framing reports whether a test output line is go test's own framing
// rather than something the test printed.
func framing(line string) bool {
	t := strings.TrimSpace(line)
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- PASS", "--- SKIP", "--- FAIL"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// summarize copies the non-verbose go test output of the events in r to
// w, then the skipped tests and the verdict.
func summarize(r io.Reader, w io.Writer) (summary, error) {
	var s summary
	out := map[[2]string][]string{} // (package, test) -> output lines
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			// Not an event (go test -json passes some errors through as
			// text): show it as is.
			fmt.Fprintln(w, string(line))
			continue
		}
		key := [2]string{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			io.WriteString(w, e.Output)
		case "output":
			if e.Test != "" {
				out[key] = append(out[key], e.Output)
				continue
			}
			// Package level: the binary's closing "PASS" is not shown by
			// go test for a passing package; everything else is.
			if strings.TrimSpace(e.Output) != "PASS" {
				io.WriteString(w, e.Output)
			}
		case "skip":
			if e.Test == "" {
				s.NoTests++
				delete(out, key)
				continue
			}
			var reason []string
			for _, l := range out[key] {
				if !framing(l) {
					reason = append(reason, strings.TrimSpace(l))
				}
			}
			r := strings.Join(reason, " / ")
			if r == "" {
				r = "(no reason given)"
			}
			s.Skips = append(s.Skips, skip{e.Package, e.Test, r})
			delete(out, key)
		case "pass":
			if e.Test == "" {
				s.Passed++
			}
			delete(out, key)
		case "fail":
			if e.Test == "" {
				s.Failed++
				continue
			}
			s.FailedTests++
			for _, l := range out[key] {
				if !strings.HasPrefix(strings.TrimSpace(l), "=== ") {
					io.WriteString(w, l)
				}
			}
			delete(out, key)
		}
	}
	if err := sc.Err(); err != nil {
		return s, err
	}
	sort.SliceStable(s.Skips, func(i, j int) bool {
		if s.Skips[i].Package != s.Skips[j].Package {
			return s.Skips[i].Package < s.Skips[j].Package
		}
		return s.Skips[i].Test < s.Skips[j].Test
	})
	fmt.Fprintf(w, "\nSkipped tests: %d\n", len(s.Skips))
	for _, k := range s.Skips {
		fmt.Fprintf(w, "  %s %s: %s\n", k.Package, k.Test, k.Reason)
	}
	if s.OK() {
		fmt.Fprintf(w, "PASS: %d package(s) ok, %d without tests, %d test(s) skipped\n", s.Passed, s.NoTests, len(s.Skips))
	} else {
		fmt.Fprintf(w, "FAIL: %d package(s) failed, %d test(s) failed; %d package(s) ok\n", s.Failed, s.FailedTests, s.Passed)
	}
	return s, nil
}
