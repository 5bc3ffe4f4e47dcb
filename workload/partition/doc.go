// Package partition reads the partitions of a site (docs/partitions.md):
// a text "NAME:CPUS[:maxtime=S][:maxcpus=N][:users=U,..][:accounts=G,..]
// [:qos=Q,..][:default]" as given to schedlab run --partition or in a
// scenario's platform.partitions, or on a platform of nodes the same
// with "nodes=HOSTLIST" for CPUS (docs/nodes.md, Spec.Nodes). Parse checks one text for a machine of
// a given size; Check checks a set (no name twice, no two defaults, at
// most MaxPartitions). What a run does with them (routing a trace's
// partition numbers, one queue each, refusals at submission) is the
// run's (package experiment).
package partition
