package launch

import (
	"bufio"
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

const testScenario = `# A sweep whose text has what YAML quoting must survive.
model: grid
name: "yes: no # not a comment"
seed: 7   # trailing spaces and a tab	
replications: 3
policy:
  grid: [random, deferred]
  local: 'sq'
`

func testKubernetes() Kubernetes {
	return Kubernetes{
		Sweep:        Sweep{Name: "schedlab-grid", Shards: 7, Workers: 2, Records: true},
		Image:        DefaultImage,
		Volume:       DefaultVolume,
		Parallelism:  3,
		ScenarioFile: "grid.yaml",
		ScenarioData: []byte(testScenario),
		Out:          "schedlab-out/grid sweep",
	}
}

// documents splits a manifest into its YAML documents, as kubectl
// does.
func documents(t *testing.T, manifest []byte) [][]byte {
	t.Helper()
	r := k8syaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(manifest)))
	var docs [][]byte
	for {
		d, err := r.Read()
		if err == io.EOF {
			return docs
		}
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
}

// The manifest decodes strictly (no unknown or duplicate field) into
// the official core/v1 and batch/v1 types: a ConfigMap holding the
// scenario byte for byte, an Indexed Job of N shards and a merge Job,
// with the image, the volume and the parallelism asked for.
func TestKubernetesManifest(t *testing.T) {
	k := testKubernetes()
	var buf bytes.Buffer
	if err := k.Write(&buf); err != nil {
		t.Fatal(err)
	}
	docs := documents(t, buf.Bytes())
	if len(docs) != 3 {
		t.Fatalf("%d documents, want 3:\n%s", len(docs), buf.String())
	}
	var cm corev1.ConfigMap
	var shards, merge batchv1.Job
	for i, obj := range []any{&cm, &shards, &merge} {
		if err := yaml.UnmarshalStrict(docs[i], obj); err != nil {
			t.Fatalf("document %d: %v\n%s", i, err, docs[i])
		}
	}
	if cm.APIVersion != "v1" || cm.Kind != "ConfigMap" || cm.Data["grid.yaml"] != testScenario || len(cm.Data) != 1 {
		t.Errorf("ConfigMap: %+v", cm)
	}
	for _, j := range []batchv1.Job{shards, merge} {
		if j.APIVersion != "batch/v1" || j.Kind != "Job" {
			t.Errorf("%s: apiVersion %s kind %s", j.Name, j.APIVersion, j.Kind)
		}
		for _, name := range []string{j.Name, j.Name + "-6"} {
			if errs := validation.IsDNS1123Label(name); len(errs) > 0 {
				t.Errorf("%s: %v", name, errs)
			}
		}
		ps := j.Spec.Template.Spec
		if ps.RestartPolicy != corev1.RestartPolicyNever || len(ps.Containers) != 1 || len(ps.Volumes) != 2 {
			t.Fatalf("%s: pod spec %+v", j.Name, ps)
		}
		c := ps.Containers[0]
		if c.Image != DefaultImage || c.ImagePullPolicy != corev1.PullIfNotPresent || c.WorkingDir != DataMount {
			t.Errorf("%s: container %+v", j.Name, c)
		}
		if v := ps.Volumes[0]; v.PersistentVolumeClaim == nil || v.PersistentVolumeClaim.ClaimName != DefaultVolume {
			t.Errorf("%s: volume %+v", j.Name, v)
		}
		if v := ps.Volumes[1]; v.ConfigMap == nil || v.ConfigMap.Name != cm.Name {
			t.Errorf("%s: volume %+v", j.Name, v)
		}
		if len(c.VolumeMounts) != 2 || c.VolumeMounts[0].MountPath != DataMount || c.VolumeMounts[1].MountPath != ScenarioMount || !c.VolumeMounts[1].ReadOnly {
			t.Errorf("%s: mounts %+v", j.Name, c.VolumeMounts)
		}
	}
	s := shards.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion || s.Completions == nil || *s.Completions != 7 ||
		s.Parallelism == nil || *s.Parallelism != 3 || s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex != BackoffLimitPerIndex {
		t.Errorf("shards: spec %+v", s)
	}
	wantShard := []string{"schedlab", "sweep", "/etc/schedlab/grid.yaml", "--shards", "7", "--out", "schedlab-out/grid sweep", "--workers", "2", "--records"}
	if c := s.Template.Spec.Containers[0]; !slices.Equal(c.Command, wantShard) || c.Resources.Requests.Cpu().String() != "2" {
		t.Errorf("shard container: command %q, cpu %s", c.Command, c.Resources.Requests.Cpu())
	}
	wantMerge := []string{"schedlab", "merge", "schedlab-out/grid sweep", "/etc/schedlab/grid.yaml", "--wait", "168h0m0s"}
	if c := merge.Spec.Template.Spec.Containers[0]; !slices.Equal(c.Command, wantMerge) {
		t.Errorf("merge container: command %q", c.Command)
	}
	if merge.Spec.CompletionMode != nil || merge.Spec.Completions != nil {
		t.Errorf("merge: spec %+v", merge.Spec)
	}
	// Strict decoding does refuse what the API does not know.
	bad := bytes.Replace(docs[1], []byte("completionMode:"), []byte("completionMod:"), 1)
	if err := yaml.UnmarshalStrict(bad, &batchv1.Job{}); err == nil {
		t.Errorf("strict decoding took an unknown field")
	}
}

// Wrong values are refused before anything is written.
func TestKubernetesRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		change func(*Kubernetes)
		err    string
	}{
		"name":        {func(k *Kubernetes) { k.Name = "Schedlab_Grid" }, "job name"},
		"long name":   {func(k *Kubernetes) { k.Name = strings.Repeat("a", MaxNameLen+1) }, "at most 40 characters"},
		"image":       {func(k *Kubernetes) { k.Image = "schedlab latest" }, "image"},
		"volume":      {func(k *Kubernetes) { k.Volume = "Data" }, "volume"},
		"out":         {func(k *Kubernetes) { k.Out = "/data/out" }, "relative to it"},
		"out up":      {func(k *Kubernetes) { k.Out = "a/../../out" }, "relative to it"},
		"out here":    {func(k *Kubernetes) { k.Out = "." }, "relative to it"},
		"parallelism": {func(k *Kubernetes) { k.Parallelism = 8 }, "parallelism 8: want 1..7"},
		"workers":     {func(k *Kubernetes) { k.Workers = 0 }, "want at least 1"},
	} {
		k := testKubernetes()
		c.change(&k)
		var buf bytes.Buffer
		if err := k.Write(&buf); err == nil || !strings.Contains(err.Error(), c.err) || buf.Len() > 0 {
			t.Errorf("%s: %v (%d bytes written), want %q", name, err, buf.Len(), c.err)
		}
	}
}

// A scenario file name that cannot be a ConfigMap key is stored under
// scenario.yaml.
func TestKubernetesScenarioKey(t *testing.T) {
	k := testKubernetes()
	k.ScenarioFile = "my sweep.yaml"
	var buf bytes.Buffer
	if err := k.Write(&buf); err != nil {
		t.Fatal(err)
	}
	var cm corev1.ConfigMap
	if err := yaml.UnmarshalStrict(documents(t, buf.Bytes())[0], &cm); err != nil {
		t.Fatal(err)
	}
	if _, ok := cm.Data["scenario.yaml"]; !ok {
		t.Errorf("keys %v", cm.Data)
	}
	for key := range cm.Data {
		if errs := validation.IsConfigMapKey(key); len(errs) > 0 {
			t.Errorf("%s: %v", key, errs)
		}
	}
}

func TestDefaultName(t *testing.T) {
	for in, want := range map[string]string{
		"grid.yaml":                              "schedlab-grid",
		"dir/Zikos 2008_Table4.yml":              "schedlab-zikos-2008-table4",
		"--x--.yaml":                             "schedlab-x",
		"été.yaml":                               "schedlab-t",
		strings.Repeat("a", 60):                  "schedlab-" + strings.Repeat("a", MaxNameLen-len("schedlab-")),
		"a" + strings.Repeat("-", 40) + "b.yaml": "schedlab-a-b",
	} {
		got := DefaultName(in)
		if got != want || CheckName(got) != nil {
			t.Errorf("%q: %q (%v), want %q", in, got, CheckName(got), want)
		}
	}
}

// Scenario files of any text arrive in the ConfigMap byte for byte.
func TestKubernetesScenarioText(t *testing.T) {
	for _, text := range []string{
		testScenario,
		"model: grid",                        // no final newline
		"  model: grid\n",                    // indented first line
		"model: grid\n\n\n",                  // blank lines at the end
		"model: grid\r\nseed: 1\r\n",         // CRLF
		"\tmodel: grid\n",                    // a tab first
		"model: grid\n---\nseed: 1\n...\n",   // document markers
		"model: \"\\u00e9t\\u00e9\" # été\n", // escapes and UTF-8
		"",
	} {
		k := testKubernetes()
		k.ScenarioData = []byte(text)
		var buf bytes.Buffer
		if err := k.Write(&buf); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		docs := documents(t, buf.Bytes())
		var cm corev1.ConfigMap
		if err := yaml.UnmarshalStrict(docs[0], &cm); err != nil {
			t.Fatalf("%q: %v\n%s", text, err, docs[0])
		}
		if got := cm.Data["grid.yaml"]; got != text {
			t.Errorf("scenario %q arrives as %q\n%s", text, got, buf.String())
		}
		if len(docs) != 3 {
			t.Errorf("%q: %d documents", text, len(docs))
		}
	}
}
