// Package launch writes what runs a sharded sweep on a cluster that is
// not ours: a bash script that submits a Slurm job array of the shards
// and a merge job that depends on it (Slurm), and a Kubernetes manifest
// with the scenario in a ConfigMap, an Indexed Job of the shards and a
// merge Job (Kubernetes).
//
// Both are built from typed values, never by filling a text template
// with user data: the script is a list of commands whose every argument
// is a word quoted for the shell (words made only of [A-Za-z0-9_@%+=:,./-]
// are written as they are, every other in single quotes), with the only
// expansions ($1, the job ids sbatch prints) named in the code; the
// manifest is Go structs with the field names of the Kubernetes API,
// marshalled to YAML, which quotes every string that needs it. The tests
// check the script with bash -n and decode the manifest strictly into
// the official k8s.io/api/batch/v1 and core/v1 types.
package launch
