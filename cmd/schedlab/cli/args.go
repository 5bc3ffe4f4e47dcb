package cli

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/alecthomas/kong"
)

// The command-line parser (kong) copies the arguments still to be read
// at every argument it reads and keeps each copy until the parse ends,
// so its time and memory grow with the square of the number of
// arguments (4,000 flags took 410 MB). Two bounds keep it small:
// maxAllArgs on the whole command line, checked first, and maxArgs on
// what the parser reads. The one flag that a command line may
// rightly repeat thousands of times, run's --reservation (up to
// avail.MaxWindows), is read by a linear pre-pass (takeRepeated) and
// does not count towards maxArgs (docs/limits.md).
const (
	// maxAllArgs bounds the arguments of a command line, all of them.
	maxAllArgs = 50_000
	// maxArgs bounds the arguments the parser reads: all but the
	// --reservation flags of run (and their values) and the policy
	// flags of run and explain (takePolicyFlags). At most about 50 MB.
	maxArgs = 1_000
)

// checkArgCount refuses a command line longer than maxAllArgs.
func checkArgCount(args []string) error {
	if len(args) > maxAllArgs {
		return fmt.Errorf("%d arguments: at most %d (maxAllArgs, docs/limits.md)", len(args), maxAllArgs)
	}
	return nil
}

// checkParsedArgs refuses more than maxArgs arguments left for the
// parser.
func checkParsedArgs(args []string) error {
	if len(args) > maxArgs {
		return fmt.Errorf("%d arguments: at most %d besides run's --reservation flags (maxArgs, docs/limits.md)", len(args), maxArgs)
	}
	return nil
}

// repeated is a repeatable flag taken out of the command line by
// takeRepeated: its values in order. The parser reads the first
// occurrence only (so that its checks and messages are as before:
// an unknown flag, a missing value), and setRepeated then gives the
// field all values.
type repeated struct {
	name   string
	values []string
}

// takeRepeated takes the occurrences of --name after the first out of
// a command line of cmd (args[0]), counting them all; more than bound
// are refused. A value that the parser would not take as one (the
// flag last, or followed by a word starting with "-") leaves the
// command line as it is, for the parser's message.
func takeRepeated(args []string, cmd, name string, bound int, boundName string) (rest []string, r repeated, err error) {
	if len(args) == 0 || args[0] != cmd {
		return args, repeated{}, nil
	}
	long, eq := "--"+name, "--"+name+"="
	n := 0
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if a == long || strings.HasPrefix(a, eq) {
			n++
		}
	}
	if n > bound {
		return nil, repeated{}, fmt.Errorf("%d %s flags: at most %d (%s)", n, long, bound, boundName)
	}
	if n < 2 {
		return args, repeated{}, nil
	}
	r.name = name
	rest = make([]string, 0, len(args))
	rest = append(rest, args[0])
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		var v string
		switch {
		case strings.HasPrefix(a, eq):
			v = a[len(eq):]
		case a == long:
			if i+1 == len(args) || strings.HasPrefix(args[i+1], "-") {
				return args, repeated{}, nil
			}
			v = args[i+1]
		default:
			rest = append(rest, a)
			continue
		}
		if len(r.values) == 0 {
			rest = append(rest, args[i:i+1+boolInt(a == long)]...)
		}
		if a == long {
			i++
		}
		r.values = append(r.values, v)
	}
	return rest, r, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// setRepeated gives the flag of r its values, after the parse.
func setRepeated(ctx *kong.Context, r repeated) error {
	if r.name == "" {
		return nil
	}
	for _, f := range ctx.Flags() {
		if f.Name == r.name {
			f.Target.Set(reflect.ValueOf(r.values))
			return nil
		}
	}
	return fmt.Errorf("internal error: no flag --%s", r.name)
}
