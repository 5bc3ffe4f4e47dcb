package cli

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// What 'sweep --emit k8s' prints decodes strictly into the official
// types, holds the scenario file byte for byte and runs the shards and
// the merge with the flags given.
func TestEmitKubernetesDecodes(t *testing.T) {
	dir := t.TempDir()
	sc := writeMergeScenarios(t, dir)[0]
	data, err := os.ReadFile(sc)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := run(t, 0, "sweep", sc, "--shards", "7", "--emit", "k8s", "--workers", "3", "--records", "--out", "sweeps/grid")
	r := k8syaml.NewYAMLReader(bufio.NewReader(bytes.NewBufferString(out)))
	var docs [][]byte
	for {
		d, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	if len(docs) != 3 {
		t.Fatalf("%d documents", len(docs))
	}
	var cm corev1.ConfigMap
	var shards, merge batchv1.Job
	for i, obj := range []any{&cm, &shards, &merge} {
		if err := yaml.UnmarshalStrict(docs[i], obj); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
	}
	if cm.Data[filepath.Base(sc)] != string(data) {
		t.Errorf("ConfigMap data %v", cm.Data)
	}
	if s := shards.Spec; *s.CompletionMode != batchv1.IndexedCompletion || *s.Completions != 7 || *s.Parallelism != 7 {
		t.Errorf("shards spec %+v", s)
	}
	want := []string{"schedlab", "sweep", "/etc/schedlab/grid.yaml", "--shards", "7", "--out", "sweeps/grid", "--workers", "3", "--records"}
	if got := shards.Spec.Template.Spec.Containers[0].Command; !slices.Equal(got, want) {
		t.Errorf("shard command %q, want %q", got, want)
	}
	if got := merge.Spec.Template.Spec.Containers[0].Command; !slices.Equal(got[:4], []string{"schedlab", "merge", "sweeps/grid", "/etc/schedlab/grid.yaml"}) {
		t.Errorf("merge command %q", got)
	}
	if shards.Name != "schedlab-grid-shards" || merge.Name != "schedlab-grid-merge" || cm.Name != "schedlab-grid-scenario" {
		t.Errorf("names %s, %s, %s", cm.Name, shards.Name, merge.Name)
	}
}

func TestTransientBuild(t *testing.T) {
	tmp := os.TempDir()
	for _, c := range []struct {
		prog string
		want bool
	}{
		{filepath.Join(tmp, "go-build1234", "b001", "exe", "schedlab"), true},
		{"/usr/local/bin/schedlab", false},
		{filepath.Join(tmp, "mybin", "schedlab"), false},
	} {
		if got := transientBuild(c.prog); got != c.want {
			t.Errorf("transientBuild(%s) = %v, want %v", c.prog, got, c.want)
		}
	}
	// Go 1.24 and later keep the executables of 'go run' in the build
	// cache: $GOCACHE, or go-build in the user's cache folder.
	cache := t.TempDir()
	t.Setenv("GOCACHE", cache)
	if !transientBuild(filepath.Join(cache, "06", "06d8-d", "schedlab")) {
		t.Errorf("a binary in $GOCACHE is not transient")
	}
	if transientBuild(filepath.Join(filepath.Dir(cache), "other", "schedlab")) {
		t.Errorf("a binary beside $GOCACHE is transient")
	}
	xdg := t.TempDir()
	t.Setenv("GOCACHE", "")
	t.Setenv("XDG_CACHE_HOME", xdg)
	t.Setenv("HOME", t.TempDir())
	if d, err := os.UserCacheDir(); err != nil || d != xdg {
		t.Skipf("the user's cache folder is %q (%v), not $XDG_CACHE_HOME, on this system", d, err)
	}
	if !transientBuild(filepath.Join(xdg, "go-build", "ab", "abcd-d", "schedlab")) {
		t.Errorf("a binary in the default build cache is not transient")
	}
}
