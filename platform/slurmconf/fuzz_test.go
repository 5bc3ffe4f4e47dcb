package slurmconf

import (
	"strings"
	"testing"
)

// Any text: an error or a configuration whose platform has nodes, never
// a panic.
func FuzzRead(f *testing.F) {
	f.Add("NodeName=n[1-4] CPUs=8 Gres=gpu:a100:2\nPartitionName=p Nodes=ALL MaxTime=1-0\nGresTypes=gpu\n")
	f.Add("NodeName=DEFAULT Sockets=2\nNodeName=a,b CoresPerSocket=4 Feature=\"x,y\" \\\n Weight=3\nSchedulerParameters=bf_window=10,bf_continue\n")
	f.Add("PartitionName=p Nodes=n1 OverSubscribe=FORCE:4 TRESBillingWeights=CPU=1,Mem=0.5G\nNodeName=n1\n")
	f.Fuzz(func(t *testing.T, text string) {
		if strings.Contains(strings.ToLower(text), "include") {
			return // files of the machine
		}
		c, err := Read(strings.NewReader(text), "f.conf")
		if err == nil && c.Nodes.Len() == 0 {
			t.Fatal("a configuration without nodes")
		}
	})
}
