package launch

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/goccy/go-yaml"
)

// Defaults of the Kubernetes manifest (docs/cluster.md).
const (
	DefaultImage  = "schedlab:latest" // an image built from the Dockerfile in docs/cluster.md
	DefaultVolume = "schedlab-data"   // a PersistentVolumeClaim, ReadWriteMany
	DataMount     = "/data"           // where the volume is mounted; the containers' working folder
	ScenarioMount = "/etc/schedlab"   // where the ConfigMap's scenario file is
	// MergeWait is how long the merge Job waits for the shards' units
	// (merge --wait): it is started with the shards, as Kubernetes has
	// no dependency between Jobs.
	MergeWait = 7 * 24 * time.Hour
	// BackoffLimitPerIndex is how often a failed shard is retried
	// (each shard on its own; Kubernetes 1.29 or newer).
	BackoffLimitPerIndex = 3
)

// Kubernetes is a sweep to run as Kubernetes Jobs.
type Kubernetes struct {
	Sweep
	Image        string // container image with schedlab on its PATH
	Volume       string // PersistentVolumeClaim mounted at DataMount
	Parallelism  int    // shards running at once, 1..Shards
	ScenarioFile string // the scenario's file name (the ConfigMap's key)
	ScenarioData []byte // the scenario file
	Out          string // the output folder, relative to the volume
}

// The objects of the manifest: the fields of the Kubernetes API that it
// uses, with the API's names (core/v1 ConfigMap, batch/v1 Job).

type objectMeta struct {
	Name   string            `yaml:"name,omitempty"`
	Labels map[string]string `yaml:"labels,omitempty"`
}

type configMap struct {
	APIVersion string            `yaml:"apiVersion"`
	Kind       string            `yaml:"kind"`
	Metadata   objectMeta        `yaml:"metadata"`
	Data       map[string]string `yaml:"data"`
}

type job struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   objectMeta `yaml:"metadata"`
	Spec       jobSpec    `yaml:"spec"`
}

type jobSpec struct {
	CompletionMode       string          `yaml:"completionMode,omitempty"`
	Completions          *int            `yaml:"completions,omitempty"`
	Parallelism          *int            `yaml:"parallelism,omitempty"`
	BackoffLimit         *int            `yaml:"backoffLimit,omitempty"`
	BackoffLimitPerIndex *int            `yaml:"backoffLimitPerIndex,omitempty"`
	Template             podTemplateSpec `yaml:"template"`
}

type podTemplateSpec struct {
	Metadata objectMeta `yaml:"metadata"`
	Spec     podSpec    `yaml:"spec"`
}

type podSpec struct {
	RestartPolicy string      `yaml:"restartPolicy"`
	Containers    []container `yaml:"containers"`
	Volumes       []volume    `yaml:"volumes"`
}

type container struct {
	Name            string        `yaml:"name"`
	Image           string        `yaml:"image"`
	ImagePullPolicy string        `yaml:"imagePullPolicy"`
	Command         []string      `yaml:"command"`
	WorkingDir      string        `yaml:"workingDir"`
	Resources       *resources    `yaml:"resources,omitempty"`
	VolumeMounts    []volumeMount `yaml:"volumeMounts"`
}

type resources struct {
	Requests map[string]string `yaml:"requests"`
}

type volumeMount struct {
	Name      string `yaml:"name"`
	MountPath string `yaml:"mountPath"`
	ReadOnly  bool   `yaml:"readOnly,omitempty"`
}

type volume struct {
	Name                  string           `yaml:"name"`
	PersistentVolumeClaim *claimSource     `yaml:"persistentVolumeClaim,omitempty"`
	ConfigMap             *configMapSource `yaml:"configMap,omitempty"`
}

type claimSource struct {
	ClaimName string `yaml:"claimName"`
}

type configMapSource struct {
	Name string `yaml:"name"`
}

var (
	dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	configMapKey = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)
)

// CheckVolume checks a PersistentVolumeClaim name (a DNS subdomain).
func CheckVolume(name string) error {
	if len(name) > 253 || !dnsSubdomain.MatchString(name) {
		return fmt.Errorf("%q: a PersistentVolumeClaim name is lower-case letters, digits, '-' and '.', at most 253 characters", name)
	}
	return nil
}

// CheckImage checks a container image reference (no spaces or control
// characters; the registry checks the rest).
func CheckImage(image string) error {
	if image == "" || strings.ContainsFunc(image, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return fmt.Errorf("%q: want an image reference such as registry.example.org/schedlab:1.0", image)
	}
	return nil
}

// CheckOut checks the output folder of a Kubernetes sweep: a relative
// path on the volume, inside it.
func CheckOut(out string) error {
	clean := path.Clean(out)
	if out == "" || path.IsAbs(out) || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || strings.ContainsFunc(out, unicode.IsControl) {
		return fmt.Errorf("%q: want a folder on the volume, relative to it (e.g. schedlab-out/sweep)", out)
	}
	return nil
}

// Write writes the manifest: a ConfigMap holding the scenario file, an
// Indexed Job of the shards (completionMode Indexed, completions N; each
// pod runs shard JOB_COMPLETION_INDEX) and the merge Job, which is
// started with them and waits (merge --wait) until their units are all
// there. The output folder is on the volume, mounted at DataMount,
// which is also the containers' working folder.
func (k Kubernetes) Write(w io.Writer) error {
	if err := k.check(); err != nil {
		return err
	}
	if err := CheckImage(k.Image); err != nil {
		return fmt.Errorf("image %w", err)
	}
	if err := CheckVolume(k.Volume); err != nil {
		return fmt.Errorf("volume %w", err)
	}
	if err := CheckOut(k.Out); err != nil {
		return fmt.Errorf("output folder %w", err)
	}
	if k.Parallelism < 1 || k.Parallelism > k.Shards {
		return fmt.Errorf("parallelism %d: want 1..%d (the shards)", k.Parallelism, k.Shards)
	}
	key := k.ScenarioFile
	if !configMapKey.MatchString(key) || len(key) > 253 || key == "." || key == ".." {
		key = "scenario.yaml"
	}
	scenarioPath := path.Join(ScenarioMount, key)
	labels := func(component string) map[string]string {
		return map[string]string{"app.kubernetes.io/name": "schedlab", "app.kubernetes.io/instance": k.Name, "app.kubernetes.io/component": component}
	}
	mounts := []volumeMount{{Name: "data", MountPath: DataMount}, {Name: "scenario", MountPath: ScenarioMount, ReadOnly: true}}
	volumes := []volume{
		{Name: "data", PersistentVolumeClaim: &claimSource{ClaimName: k.Volume}},
		{Name: "scenario", ConfigMap: &configMapSource{Name: k.Name + "-scenario"}},
	}
	ptr := func(n int) *int { return &n }
	cm := configMap{APIVersion: "v1", Kind: "ConfigMap",
		Metadata: objectMeta{Name: k.Name + "-scenario", Labels: labels("scenario")},
		Data:     map[string]string{key: string(k.ScenarioData)}}
	shards := job{APIVersion: "batch/v1", Kind: "Job",
		Metadata: objectMeta{Name: k.Name + "-shards", Labels: labels("shards")},
		Spec: jobSpec{
			CompletionMode:       "Indexed",
			Completions:          ptr(k.Shards),
			Parallelism:          ptr(k.Parallelism),
			BackoffLimitPerIndex: ptr(BackoffLimitPerIndex),
			Template: podTemplateSpec{
				Metadata: objectMeta{Labels: labels("shards")},
				Spec: podSpec{RestartPolicy: "Never", Volumes: volumes, Containers: []container{{
					Name: "shard", Image: k.Image, ImagePullPolicy: "IfNotPresent",
					Command:      append([]string{"schedlab"}, k.shardArgs(scenarioPath, k.Out)...),
					WorkingDir:   DataMount,
					Resources:    &resources{Requests: map[string]string{"cpu": strconv.Itoa(k.Workers)}},
					VolumeMounts: mounts,
				}}},
			},
		}}
	merge := job{APIVersion: "batch/v1", Kind: "Job",
		Metadata: objectMeta{Name: k.Name + "-merge", Labels: labels("merge")},
		Spec: jobSpec{
			BackoffLimit: ptr(2),
			Template: podTemplateSpec{
				Metadata: objectMeta{Labels: labels("merge")},
				Spec: podSpec{RestartPolicy: "Never", Volumes: volumes, Containers: []container{{
					Name: "merge", Image: k.Image, ImagePullPolicy: "IfNotPresent",
					Command:      []string{"schedlab", "merge", k.Out, scenarioPath, "--wait", MergeWait.String()},
					WorkingDir:   DataMount,
					VolumeMounts: mounts,
				}}},
			},
		}}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The sweep %s on Kubernetes: %d shards as an Indexed Job, then the merge.\n", key, k.Shards)
	b.WriteString("# Made by 'schedlab sweep --emit k8s'. Apply it with: kubectl apply -f THIS-FILE\n")
	cmText, err := marshalConfigMap(cm)
	if err != nil {
		return err
	}
	b.Write(cmText)
	for _, obj := range []any{shards, merge} {
		b.WriteString("---\n")
		y, err := yaml.Marshal(obj)
		if err != nil {
			return err
		}
		b.Write(y)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// marshalConfigMap writes the scenario as a literal block, as it is in
// its file, when that is sure to be read back byte for byte (no tab, no
// carriage return, no indented first line, and the block decodes to the
// same text); else as one double-quoted string.
func marshalConfigMap(cm configMap) ([]byte, error) {
	literal := true
	for _, v := range cm.Data {
		if strings.ContainsAny(v, "\t\r") || strings.HasPrefix(v, " ") || strings.ContainsFunc(v, func(r rune) bool { return r != '\n' && unicode.IsControl(r) }) {
			literal = false
		}
	}
	if literal {
		y, err := yaml.MarshalWithOptions(cm, yaml.UseLiteralStyleIfMultiline(true))
		if err != nil {
			return nil, err
		}
		var back configMap
		if yaml.Unmarshal(y, &back) == nil && maps.Equal(back.Data, cm.Data) {
			return y, nil
		}
	}
	return yaml.Marshal(cm)
}
