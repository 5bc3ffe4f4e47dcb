// Package traces embeds the small real traces that ship with schedlab, so
// that the README's first command runs on a fresh clone with nothing else.
//
// KTH-SP2-1996-2.1-cln.swf.gz: the IBM SP2 of the Swedish Royal Institute of
// Technology (KTH), 100 processors, 27,992 jobs, from the Parallel Workloads
// Archive (acknowledgement: Lars Malinowsky; D. G. Feitelson, D. Tsafrir,
// D. Krakov, "Experience with using the Parallel Workloads Archive", JPDC
// 74(10), 2014). This copy lacks 484 records of the archive's file (see
// ../../docs/traces.md).
package traces

import (
	"embed"
	"io/fs"
	"sort"
)

//go:embed *.swf.gz
var files embed.FS

// Open opens an embedded trace by file name.
func Open(name string) (fs.File, error) { return files.Open(name) }

// Names lists the embedded traces.
func Names() []string {
	ents, _ := files.ReadDir(".")
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}
