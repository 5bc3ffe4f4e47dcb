package scenario

import (
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/registry"
)

// pinnedKeyParts is the order of every model's key parts as the first
// releases wrote it (the table bind.go held before the positions moved
// onto the settings, keySpec.at and registryKeyParts). Keys are file
// names of saved results: this copy never changes, and the parts derived
// from the settings must be exactly these.
var pinnedKeyParts = map[string][]keyPart{
	registry.ModelCluster: {
		{name: "queue", path: "policy.queue"},
		{name: "depth", path: "policy.depth"},
		{name: "order", path: "policy.order"},
		{options: true},
		{name: "trace", path: "workload.trace"},
		{name: "estimate", path: "workload.estimate"},
		{name: "overrun", path: "workload.on_overrun"},
		{name: "clamp", path: "workload.clamp"},
		{name: "ia", path: "workload.mean_interarrival"},
		{name: "svc", path: "workload.mean_service"},
		{name: "procs", path: "platform.procs"},
		{name: "pred", path: "workload.predictor", omitDefault: true},
		{name: "corr", path: "workload.correction", omitDefault: true},
		{name: "resample", path: "workload.resample", omitDefault: true},
		{name: "wl", path: "workload.model", omitDefault: true},
		{workloadOptions: true},
		// unavailable CPUs (docs/availability.md): written only when set
		{name: "resv", path: "platform.reservations", omitDefault: true},
		{name: "events", path: "platform.events", omitDefault: true},
		{name: "mtbf", path: "platform.failures.mtbf", omitDefault: true},
		{name: "mttr", path: "platform.failures.mttr", omitDefault: true},
		{name: "fgroup", path: "platform.failures.group", omitDefault: true},
		{name: "onfail", path: "platform.on_failure", omitDefault: true},
		// partitions (docs/partitions.md): written only when set
		{name: "parts", path: "platform.partitions", omitDefault: true},
		// a trace's prefix and the batch transform: written only when set
		{name: "jobs", path: "workload.jobs", omitDefault: true},
		{name: "submit", path: "workload.submit", omitDefault: true},
	},
	registry.ModelGrid: {
		{name: "grid", path: "policy.grid"},
		{name: "ai", path: "policy.allocation_interval"},
		{name: "rf", path: "policy.random_fraction"},
		{name: "local", path: "policy.local"},
		{name: "norm", path: "policy.normalize_load"},
		{options: true},
		{name: "ia", path: "workload.mean_interarrival"},
		{name: "svc", path: "workload.mean_service"},
		{name: "sites", path: "platform.sites"},
	},
	registry.ModelGang: {
		{name: "approach", path: "policy.approach"},
		{name: "t", path: "policy.threshold"},
		{options: true},
		{name: "ia", path: "workload.mean_interarrival"},
		{name: "svc", path: "workload.mean_service"},
		{name: "gia", path: "workload.gang_mean_interarrival"},
		{name: "sizes", path: "workload.gang_sizes"},
		{path: "workload.gang_min"},
		{path: "workload.gang_max", join: "-"},
		{name: "times", path: "workload.gang_times"},
		{name: "e", path: "workload.estimate_error"},
		{name: "split", path: "workload.split_overhead"},
		{name: "sites", path: "platform.sites"},
	},
	// hetero: the machines are explicit (sites) or generated (machines,
	// cpus, speed); the job generator's settings are written only when
	// one of a group differs from its default.
	registry.ModelHetero: {
		{name: "queue", path: "policy.queue"},
		{options: true},
		{name: "ia", path: "workload.mean_interarrival"},
		{name: "jcpus", path: "workload.cpus_min", omitDefault: true},
		{path: "workload.cpus_max", join: "-", omitDefault: true},
		{name: "est", path: "workload.estimated_min", omitDefault: true},
		{path: "workload.estimated_max", join: "-", omitDefault: true},
		{name: "dlf", path: "workload.deadline_fraction", omitDefault: true, zeroDistinct: true},
		{name: "dl", path: "workload.deadline", omitDefault: true},
		{name: "s", path: "workload.deadline_factor_min", omitDefault: true},
		{path: "workload.deadline_factor_max", join: "-", omitDefault: true},
		{name: "bm", path: "workload.bm_est", omitDefault: true},
		{name: "sites", path: "platform.sites"},
		{name: "machines", path: "platform.machines"},
		{name: "cpus", path: "platform.cpus_min"},
		{path: "platform.cpus_max", join: "-"},
		{name: "speed", path: "platform.speed_min"},
		{path: "platform.speed_max", join: "-"},
	},
}

// The key parts derived from the settings table and registryKeyParts are
// the pinned ones, part by part (name, join, omitDefault, zeroDistinct),
// with the option markers expanded the same way; a part added since
// (a setting not pinned) is left out at its default, so that every
// existing key stays as it was.
func TestKeyPartsPinned(t *testing.T) {
	if len(keyParts()) != len(pinnedKeyParts) {
		t.Errorf("key parts of %d models, pinned %d", len(keyParts()), len(pinnedKeyParts))
	}
	for model, pinned := range pinnedKeyParts {
		var want []keyPart
		paths := map[string]bool{}
		for _, kp := range pinned {
			switch {
			case kp.options:
				want = append(want, optionKeyParts(model)...)
			case kp.workloadOptions:
				want = append(want, workloadKeyParts()...)
			default:
				want = append(want, kp)
			}
		}
		for _, kp := range want {
			paths[kp.path] = true
		}
		var got []keyPart
		for _, kp := range keyParts()[model] {
			if paths[kp.path] {
				got = append(got, kp)
			} else if !kp.omitDefault {
				t.Errorf("model %s: the new key part %s is written at its default: every existing key would change", model, kp.path)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("model %s: key parts\n%+v\nwant\n%+v", model, got, want)
		}
	}
	if len(pinnedKeyParts[registry.ModelCluster]) < 20 {
		t.Errorf("pinned cluster parts: %d", len(pinnedKeyParts[registry.ModelCluster]))
	}
}
