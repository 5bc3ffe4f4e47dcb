package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

func main() {
	run := flag.String("run", "", "only the mutations whose name matches this regular expression")
	list := flag.Bool("list", false, "list the mutations and exit")
	pkgs := flag.String("pkgs", "./...", "the packages to test (space-separated)")
	full := flag.Bool("full", false, "set SCHEDLAB_GOLDEN_FULL=1")
	timeout := flag.String("timeout", "10m", "go test's -timeout per run")
	tags := flag.String("tags", "invariants", "go test's -tags (invariants: the tests behind that build tag run too)")
	keep := flag.Bool("keep", false, "keep the temporary copy")
	flag.Parse()
	ms, err := selected(*run)
	if err != nil {
		fail(err)
	}
	if *list {
		for _, m := range ms {
			fmt.Printf("%-26s %s: %s\n", m.Name, m.File, m.What)
		}
		return
	}
	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	tmp, err := os.MkdirTemp("", "schedlab-mutants-")
	if err != nil {
		fail(err)
	}
	if *keep {
		fmt.Fprintln(os.Stderr, "mutants: the copy is in", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	repo := filepath.Join(tmp, "repo")
	if err := copyRepo(root, repo); err != nil {
		fail(err)
	}
	if shared := filepath.Join(filepath.Dir(root), "shared"); isDir(shared) {
		if err := os.Symlink(shared, filepath.Join(tmp, "shared")); err != nil {
			fail(err)
		}
	}
	env := os.Environ()
	if *full {
		env = append(env, "SCHEDLAB_GOLDEN_FULL=1")
	}
	args := append([]string{"test", "-json", "-timeout", *timeout, "-tags", *tags}, strings.Fields(*pkgs)...)
	t0 := time.Now()
	fmt.Fprintf(os.Stderr, "mutants: go %s, unmutated ...\n", strings.Join(args, " "))
	base := goTest(repo, env, args)
	if !base.ok() {
		fail(fmt.Errorf("the tests fail without a mutation (%s): fix that first", strings.Join(base.caught(), "; ")))
	}
	fmt.Fprintf(os.Stderr, "mutants: unmutated: pass (%s)\n", time.Since(t0).Round(time.Second))
	var rows [][]string
	missed := 0
	for _, m := range ms {
		t0 := time.Now()
		r, err := apply(repo, m, func() result { return goTest(repo, env, args).without(self) })
		cell := ""
		switch {
		case err != nil:
			cell, missed = "**does not apply**: "+err.Error(), missed+1
		case r.ok():
			cell, missed = "**not caught**", missed+1
		default:
			cell = strings.Join(r.caught(), "; ")
		}
		fmt.Fprintf(os.Stderr, "mutants: %s (%s): %s\n", m.Name, time.Since(t0).Round(time.Second), cell)
		rows = append(rows, []string{"`" + m.Name + "`", "`" + m.File + "`: " + m.What, cell})
	}
	fmt.Println("| mutation | the bug | caught by (failing tests, by package) |")
	fmt.Println("|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %s |\n", strings.Join(r, " | "))
	}
	fmt.Printf("\n%d of %d mutations caught (go %s; %s in all).\n", len(ms)-missed, len(ms), strings.Join(args, " "), time.Since(t0).Round(time.Second))
	if missed > 0 {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mutants:", err)
	os.Exit(2)
}

// selected returns the mutations whose name matches re (all for "").
func selected(re string) ([]mutation, error) {
	rx, err := regexp.Compile(re)
	if err != nil {
		return nil, err
	}
	var out []mutation
	for _, m := range mutations {
		if rx.MatchString(m.Name) {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no mutation matches %q", re)
	}
	return out, nil
}

// apply plants m in the copy at repo, calls test and restores the file.
func apply(repo string, m mutation, test func() result) (result, error) {
	path := filepath.Join(repo, m.File)
	orig, err := os.ReadFile(path)
	if err != nil {
		return result{}, err
	}
	if n := bytes.Count(orig, []byte(m.Old)); n != 1 {
		return result{}, fmt.Errorf("%q occurs %d times in %s, want once", m.Old, n, m.File)
	}
	if err := os.WriteFile(path, bytes.Replace(orig, []byte(m.Old), []byte(m.New), 1), 0o644); err != nil {
		return result{}, err
	}
	defer os.WriteFile(path, orig, 0o644)
	return test(), nil
}

// self is this tool's package: its TestMutationsApply fails under every
// mutation (the mutated text is no longer there), which says nothing.
const self = "github.com/schedlab/schedlab/tools/mutants"

// without drops the failures of package pkg.
func (r result) without(pkg string) result {
	delete(r.failed, pkg)
	r.pkgFail = slices.DeleteFunc(r.pkgFail, func(p string) bool { return p == pkg })
	return r
}

// result is what a go test -json run found.
type result struct {
	failed   map[string][]string // package -> top-level tests that failed
	pkgFail  []string            // packages that failed without a failing test (build, timeout, panic)
	runError string              // go test could not run
}

func (r result) ok() bool { return len(r.failed) == 0 && len(r.pkgFail) == 0 && r.runError == "" }

// caught lists the failures: "pkg: TestA, TestB" per package.
func (r result) caught() []string {
	var out []string
	if r.runError != "" {
		out = append(out, r.runError)
	}
	for _, p := range r.pkgFail {
		out = append(out, short(p)+": (package failed: build, timeout or panic)")
	}
	pkgs := make([]string, 0, len(r.failed))
	for p := range r.failed {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, p := range pkgs {
		out = append(out, short(p)+": "+strings.Join(r.failed[p], ", "))
	}
	return out
}

func short(pkg string) string { return strings.TrimPrefix(pkg, "github.com/schedlab/schedlab/") }

// goTest runs go with args in dir and reads its -json output.
func goTest(dir string, env, args []string) result {
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return result{runError: err.Error()}
	}
	if err := cmd.Start(); err != nil {
		return result{runError: err.Error()}
	}
	r := parse(out)
	err = cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		r.runError = err.Error()
	}
	if err != nil && r.ok() {
		r.runError = "go test failed: " + strings.TrimSpace(stderr.String())
	}
	return r
}

// parse reads go test -json events: the failing top-level tests and the
// packages that failed with no failing test.
func parse(rd io.Reader) result {
	r := result{failed: map[string][]string{}}
	withTest := map[string]bool{}
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e struct{ Action, Package, Test string }
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Action != "fail" {
			continue
		}
		if e.Test == "" {
			if !withTest[e.Package] {
				r.pkgFail = append(r.pkgFail, e.Package)
			}
			continue
		}
		withTest[e.Package] = true
		top, _, _ := strings.Cut(e.Test, "/")
		if !slices.Contains(r.failed[e.Package], top) {
			r.failed[e.Package] = append(r.failed[e.Package], top)
		}
	}
	for p := range r.failed {
		slices.Sort(r.failed[p])
	}
	return r
}

// repoRoot is the top of the git checkout of the current folder.
func repoRoot() (string, error) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("git rev-parse --show-toplevel: %v (run from inside the checkout)", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// copyRepo copies the tracked and untracked, not ignored, files of the
// checkout at root to dst, as they are on disk.
func copyRepo(root, dst string) error {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git ls-files: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, f)
		fi, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the work tree
		}
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() {
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, b, fi.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
