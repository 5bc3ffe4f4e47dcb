package scenario

import "testing"

// Problems in hetero files are reported with their file:line:column.
func TestHeteroErrors(t *testing.T) {
	head := "model: hetero\nstop: {completed: 10}\n"
	tests := []struct{ name, src, want string }{
		{"bad bm_est", head + "workload: {mean_interarrival: 5, bm_est: fastest}\npolicy: {queue: fcfs}\n",
			`t.yaml:3:42: workload.bm_est: unknown value "fastest" (known: uniform, min, max, random-machine)`},
		{"bad deadline in a sweep", head + "workload:\n  mean_interarrival: 5\n  deadline: [factor, soon]\npolicy: {queue: fcfs}\n",
			`t.yaml:5:22: workload.deadline: unknown value "soon" (known: factor, fastest, alea)`},
		{"fraction above 1", head + "workload: {mean_interarrival: 5, deadline_fraction: 1.5}\npolicy: {queue: eg-edf}\n",
			"t.yaml:3:53: workload.deadline_fraction: must be in [0, 1], got 1.5"},
		{"missing rate and policy", head + "platform: {machines: 10}\n",
			"t.yaml:1:1: workload.mean_interarrival: required by model hetero\n" +
				"t.yaml:1:1: policy.queue: required by model hetero"},
		{"sites and generator", head + "platform: {sites: [{procs: 8, speed: 300}], machines: 10}\nworkload: {mean_interarrival: 5}\npolicy: {queue: fcfs}\n",
			"t.yaml:3:45: platform.machines: not with platform.sites: the machines are given (sites) or generated (machines, cpus_min, ...), not both"},
		{"min above max", head + "platform: {speed_min: 700}\nworkload: {mean_interarrival: 5, estimated_min: 4000}\npolicy: {queue: fcfs}\n",
			"t.yaml:3:23: platform.speed_min: 700 is larger than platform.speed_max (600)\n" +
				"t.yaml:4:49: workload.estimated_min: 4000 is larger than workload.estimated_max (3000)"},
		{"jobs larger than the machines", head + "platform: {cpus_max: 4}\nworkload: {mean_interarrival: 5}\npolicy: {queue: fcfs}\n",
			"t.yaml:4:1: workload.cpus_max: jobs of 8 CPUs could never start: the largest machine has 4"},
		{"factor with alea", head + "workload: {mean_interarrival: 5, deadline: alea, deadline_factor_max: 3}\npolicy: {queue: fcfs}\n",
			"t.yaml:3:50: workload.deadline_factor_max: only used with workload.deadline factor or fastest (workload.deadline is alea)"},
		{"warm-up", head + "warmup: {jobs: 5}\nworkload: {mean_interarrival: 5}\npolicy: {queue: fcfs}\n",
			"t.yaml:3:10: warmup.jobs: not used by model hetero (only by cluster, grid, gang)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error")
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// Hetero keys: the generator's settings with generated machines, the
// sites with explicit ones, job settings only when not the defaults.
func TestHeteroKeys(t *testing.T) {
	tests := []struct{ src, want string }{
		{"model: hetero\nstop: {completed: 3000}\nworkload: {mean_interarrival: 2}\npolicy: {queue: tabu}\n",
			"hetero_queue=tabu_ia=2_machines=150_cpus=1-16_speed=200-600_stop=3000_warmup=0_seed=1_reps=1"},
		{"model: hetero\nstop: {completed: 3000}\nplatform: {sites: [{procs: 16, speed: 300}, {procs: 8, speed: 300}]}\n" +
			"workload: {mean_interarrival: 2, cpus_max: 4, deadline_factor_min: 1, bm_est: uniform}\npolicy: {queue: easy}\n",
			"hetero_queue=easy_ia=2_jcpus=1-4_s=1-4_bm=uniform_sites=1x16s300-1x8s300_stop=3000_warmup=0_seed=1_reps=1"},
	}
	for _, tt := range tests {
		pts, err := Parse("t.yaml", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := pts[0].Scenario.Key(); got != tt.want {
			t.Errorf("key %s, want %s", got, tt.want)
		}
	}
}
