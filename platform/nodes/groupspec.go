package nodes

import (
	"strconv"
	"strings"
)

// Spec writes g in the syntax ParseGroup reads
// (NAMES:cores=N[:sockets=S][:threads=T][:mem=SIZE][:gres=...][:features=...][:weight=W]),
// NAMES compressed into a hostlist: ParseGroup(g.Spec()) is g with its
// names in canonical order. It is how a platform read from elsewhere (a
// slurm.conf's NodeName lines) becomes the text of run --nodes. It
// reports false when g's names do not compress (an empty group).
func (g NodeGroup) Spec() (string, bool) {
	hl, err := Compress(g.Names)
	if err != nil || hl == "" {
		return "", false
	}
	var b strings.Builder
	b.WriteString(hl)
	b.WriteString(":cores=")
	b.WriteString(strconv.Itoa(g.CoresPerSocket))
	if g.Sockets > 1 {
		b.WriteString(":sockets=")
		b.WriteString(strconv.Itoa(g.Sockets))
	}
	if g.ThreadsPerCore > 1 {
		b.WriteString(":threads=")
		b.WriteString(strconv.Itoa(g.ThreadsPerCore))
	}
	if g.MemMB > 0 {
		b.WriteString(":mem=")
		b.WriteString(strconv.FormatInt(g.MemMB, 10))
	}
	if len(g.GRES) > 0 {
		b.WriteString(":gres=")
		for i, x := range g.GRES {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(x.Kind().String())
			b.WriteByte('=')
			b.WriteString(strconv.Itoa(x.Count))
		}
	}
	if len(g.Features) > 0 {
		b.WriteString(":features=")
		b.WriteString(strings.Join(g.Features, ","))
	}
	if g.Weight != 1 {
		b.WriteString(":weight=")
		b.WriteString(strconv.FormatUint(uint64(g.Weight), 10))
	}
	return b.String(), true
}
