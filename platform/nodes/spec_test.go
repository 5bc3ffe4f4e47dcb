package nodes

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Hand-worked specs and the groups they give.
func TestParseGroup(t *testing.T) {
	for _, c := range []struct {
		spec string
		want NodeGroup
		cpus int
	}{
		{"n[1-2]:cores=8",
			NodeGroup{Names: []string{"n1", "n2"}, Sockets: 1, CoresPerSocket: 8, ThreadsPerCore: 1, Weight: 1}, 8},
		// sockets given: cores is per socket (Slurm's CoresPerSocket), 2 x 32 x 2 = 128 CPUs
		{"gpu[01-02]:cores=32:sockets=2:threads=2:mem=512G:gres=gpu:a100=4,nvme=1:features=ib,a100:weight=10",
			NodeGroup{Names: []string{"gpu01", "gpu02"}, Sockets: 2, CoresPerSocket: 32, ThreadsPerCore: 2, MemMB: 512 << 10,
				GRES:     []GRES{{"gpu", "a100", 4}, {"nvme", "", 1}},
				Features: []string{"a100", "ib"}, Weight: 10}, 128},
		// fields in any order; several typed GRES of one name, sorted by type
		{"g1:gres=gpu:v100=2,gpu:a100=2:cores=4",
			NodeGroup{Names: []string{"g1"}, Sockets: 1, CoresPerSocket: 4, ThreadsPerCore: 1, Weight: 1,
				GRES: []GRES{{"gpu", "a100", 2}, {"gpu", "v100", 2}}}, 4},
		// a GRES type may be named like a field: the '=' still missing decides
		{"g1:cores=4:gres=gpu:mem=2",
			NodeGroup{Names: []string{"g1"}, Sockets: 1, CoresPerSocket: 4, ThreadsPerCore: 1, Weight: 1,
				GRES: []GRES{{"gpu", "mem", 2}}}, 4},
		{"g1:cores=4:gres=nvme=1,gpu:a100=2:weight=0",
			NodeGroup{Names: []string{"g1"}, Sockets: 1, CoresPerSocket: 4, ThreadsPerCore: 1, Weight: 0,
				GRES: []GRES{{"gpu", "a100", 2}, {"nvme", "", 1}}}, 4},
		{"n1:cores=1:threads=4", NodeGroup{Names: []string{"n1"}, Sockets: 1, CoresPerSocket: 1, ThreadsPerCore: 4, Weight: 1}, 4},
	} {
		g, err := ParseGroup(c.spec)
		if err != nil {
			t.Errorf("ParseGroup(%q): %v", c.spec, err)
			continue
		}
		if !reflect.DeepEqual(g, c.want) {
			t.Errorf("ParseGroup(%q) =\n%+v, want\n%+v", c.spec, g, c.want)
		}
		if g.CPUs() != c.cpus {
			t.Errorf("ParseGroup(%q): %d CPUs, want %d", c.spec, g.CPUs(), c.cpus)
		}
	}
}

// SIZE: a plain number is MB; K, M, G, T are powers of 1024, either case;
// K rounds up to whole MB.
func TestMem(t *testing.T) {
	for _, c := range []struct {
		size string
		mb   int64
	}{
		{"1", 1}, {"1000", 1000}, {"1M", 1}, {"4G", 4096}, {"4g", 4096}, {"2T", 2 << 20},
		{"1024K", 1}, {"1K", 1}, {"1025k", 2}, {"1024T", MaxMemMB},
	} {
		g, err := ParseGroup("n1:cores=1:mem=" + c.size)
		if err != nil || g.MemMB != c.mb {
			t.Errorf("mem=%s: %d MB, %v; want %d", c.size, g.MemMB, err, c.mb)
		}
	}
}

// Every malformed part is refused, naming the field and the column.
func TestParseGroupErrors(t *testing.T) {
	for _, c := range []struct {
		spec  string
		field string
		col   int
		msg   string
	}{
		{"n1", "cores", 3, "no cores=N"},
		{"n1:mem=4G", "cores", 10, "no cores=N"},
		{":cores=4", "names", 1, "no node names"},
		{"n[1-:cores=4", "names", 5, "ends inside brackets"},
		{"n1 n2:cores=4", "names", 3, "may not appear"},
		{"n1:cores=0", "cores", 10, "want 1..8192"},
		{"n1:cores=x", "cores", 10, `"x" is not a whole number`},
		{"n1:cores=-1", "cores", 10, "not a whole number"},
		{"n1:cores=", "cores", 10, "no number"},
		{"n1:cores=99999999999999999999", "cores", 10, "want 1..8192"},
		{"n1:cores=4:cores=5", "cores", 12, "cores given twice"},
		{"n1:cores=4:core=5", "core", 12, `unknown field "core"`},
		{"n1:cores=4:", "", 12, "want KEY=VALUE"},
		{"n1:cores=4::mem=1", "", 12, "want KEY=VALUE"},
		{"n1:cores=4:=3", "", 12, "want KEY=VALUE"},
		{"n1:cores=64:sockets=8:threads=32", "cores", 10, "= 16384 CPUs a node, more than 8192"},
		{"n1:cores=4:sockets=0", "sockets", 20, "want 1..8192"},
		{"n1:cores=4:threads=x", "threads", 20, "not a whole number"},
		{"n1:cores=4:mem=4GB", "mem", 17, `unit "GB": want K, M, G or T`},
		{"n1:cores=4:mem=1.5G", "mem", 17, "not a whole number"},
		{"n1:cores=4:mem=G", "mem", 16, "no number"},
		{"n1:cores=4:mem=0", "mem", 16, "want 1.."},
		{"n1:cores=4:mem=2048T", "mem", 16, "more than 1073741824 MB (MaxMemMB)"},
		{"n1:cores=4:gres=gpu", "gres", 17, "want NAME=COUNT or NAME:TYPE=COUNT"},
		{"n1:cores=4:gres=gpu=0", "gres", 21, "want 1..1024"},
		{"n1:cores=4:gres=gpu=x", "gres", 21, "not a whole number"},
		{"n1:cores=4:gres=gpu=2000", "gres", 21, "want 1..1024"},
		{"n1:cores=4:gres=gpu=1000,nic=100", "gres", 26, "more than 1024 GRES units a node"},
		{"n1:cores=4:gres==2", "gres", 17, "empty GRES name"},
		{"n1:cores=4:gres=gpu:=2", "gres", 21, "empty GRES type"},
		{"n1:cores=4:gres=g/pu=2", "gres", 18, `'/' not allowed`},
		{"n1:cores=4:gres=gpu=1,gpu=2", "gres", 23, "GRES gpu given twice"},
		{"n1:cores=4:gres=gpu:a100=1,gpu:a100=2", "gres", 28, "GRES gpu:a100 given twice"},
		{"n1:cores=4:gres=gpu:a100=1,gpu=2", "gres", 28, "both with and without a type"},
		{"n1:cores=4:gres=gpu=1,", "gres", 23, "want NAME=COUNT"},
		{"n1:cores=4:features=", "features", 21, "empty feature"},
		{"n1:cores=4:features=ib,,a", "features", 24, "empty feature"},
		{"n1:cores=4:features=ib,ib", "features", 24, `feature "ib" given twice`},
		{"n1:cores=4:features=-x", "features", 21, `'-' not allowed`},
		{"n1:cores=4:features=" + strings.Repeat("f", 65), "features", 21, "more than 64 (MaxWordLen)"},
		{"n1:cores=4:weight=-1", "weight", 19, "not a whole number"},
		{"n1:cores=4:weight=4294967296", "weight", 19, "want 0..4294967295"},
	} {
		_, err := ParseGroup(c.spec)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("ParseGroup(%q): %v, want an *Error", c.spec, err)
			continue
		}
		if e.Field != c.field || e.Offset+1 != c.col || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("ParseGroup(%q): %v (field %q), want column %d (%s) and %q", c.spec, err, e.Field, c.col, c.field, c.msg)
		}
	}
	// more features or GRES kinds than a node may have
	many := strings.Repeat("f,", MaxFeatures) + "f"
	if _, err := ParseGroup("n1:cores=1:features=" + many); err == nil || !strings.Contains(err.Error(), "MaxFeatures") {
		t.Errorf("too many features: %v", err)
	}
	kinds := strings.Repeat("g=1,", MaxGRESKinds) + "g=1"
	if _, err := ParseGroup("n1:cores=1:gres=" + kinds); err == nil || !strings.Contains(err.Error(), "MaxGRESKinds") {
		t.Errorf("too many GRES kinds: %v", err)
	}
	if _, err := ParseGroup(strings.Repeat("n", MaxSpecLen+1)); err == nil || !strings.Contains(err.Error(), "MaxSpecLen") {
		t.Errorf("long spec: %v", err)
	}
}

// The mapping form gives the same group as the spec, and errors name the
// field with the column inside its value.
func TestParseFields(t *testing.T) {
	spec := "gpu[01-02]:cores=32:sockets=2:threads=2:mem=512G:gres=gpu:a100=4,nvme=1:features=ib,a100:weight=10"
	want, err := ParseGroup(spec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseFields([]Field{
		{"names", "gpu[01-02]"}, {"cores", "32"}, {"sockets", "2"}, {"threads", "2"}, {"mem", "512G"},
		{"gres", "gpu:a100=4,nvme=1"}, {"features", "ib,a100"}, {"weight", "10"},
	})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseFields = %+v, %v; want %+v", got, err, want)
	}
	for _, c := range []struct {
		fields []Field
		want   string
	}{
		{[]Field{{"names", "n[1-"}, {"cores", "4"}}, "column 5 (names): hostlist ends inside brackets: want a number"},
		{[]Field{{"names", "n1"}, {"cores", "4"}, {"gres", "gpu:a100=x"}}, `column 10 (gres): "x" is not a whole number`},
		{[]Field{{"names", "n1"}}, "(cores): no cores=N"},
		{[]Field{{"cores", "4"}}, "(names): no names"},
		{[]Field{{"names", "n1"}, {"cores", "4"}, {"colour", "red"}}, `(colour): unknown field "colour"`},
	} {
		_, err := ParseFields(c.fields)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseFields(%v): %v, want %q", c.fields, err, c.want)
		}
	}
}

func FuzzParseGroup(f *testing.F) {
	for _, s := range []string{
		"gpu[01-32]:cores=32:sockets=2:threads=2:mem=512G:gres=gpu:a100=4,nvme=1:features=ib,a100:weight=10",
		"n[1-3,7]:cores=8", "g1:gres=gpu:mem=2:cores=4", "n1:cores=4:mem=1025K", "n1:cores=4:gres=gpu:a100=1,gpu=2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		g, err := ParseGroup(spec)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(spec) {
				t.Fatalf("ParseGroup(%q): %v: want an *Error within the text", spec, err)
			}
			return
		}
		if err := checkGroup(g); err != nil {
			t.Fatalf("ParseGroup(%q) gave a group New refuses: %v", spec, err)
		}
		if g.CPUs() > MaxCPUsPerNode || g.MemMB > MaxMemMB || len(g.Names) > MaxNames {
			t.Fatalf("ParseGroup(%q): beyond a limit: %+v", spec, g)
		}
	})
}
