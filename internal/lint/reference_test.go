package lint

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A reference written inside a test file (an external test package, so
// that it can only reach the checked package through its exported names)
// must compute what it checks on its own: it may name the checked
// package's types and constants (to read the options it is given) but
// call none of its functions or methods.
type testReference struct {
	file  string   // from the module root
	funcs []string // the reference's functions
	pkg   string   // the checked package's name, as imported
	// allowed are the exported names of pkg the functions may use.
	allowed []string
}

var testReferences = []testReference{
	// The naive JRB and the paper's rank formulas: never rank.Rank.Of,
	// rank.Named or the policy itself.
	{"policy/rank/naive_test.go", []string{"paperRank", "naiveJRB"}, "rank",
		[]string{"Form", "FormOriginal", "FormLinear", "FormLog", "Options", "Head", "HeadNone", "HeadFCFS", "HeadEASY",
			"Select", "SelectFitNow", "SelectStrict"}},
}

// referenceViolations lists, in the Go source src of r.file, what r's
// functions use of r.pkg beyond r.allowed and their calls of a method in
// checkedMethods (without type information a method call on a value of
// the checked package is told by its name only), and r's functions that
// are missing.
func referenceViolations(r testReference, src string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, r.file, src, 0)
	if err != nil {
		return nil, err
	}
	var bad []string
	found := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || !slices.Contains(r.funcs, fd.Name.Name) {
			continue
		}
		found[fd.Name.Name] = true
		ast.Inspect(fd, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && id.Name == r.pkg && !slices.Contains(r.allowed, x.Sel.Name) {
					bad = append(bad, fmt.Sprintf("%s: %s uses %s.%s", fset.Position(x.Pos()), fd.Name.Name, r.pkg, x.Sel.Name))
				}
			case *ast.CallExpr:
				// A method of the checked package's values (o.Rank.Of).
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && checkedMethods[sel.Sel.Name] {
					if id, ok := sel.X.(*ast.Ident); !ok || id.Name != r.pkg {
						bad = append(bad, fmt.Sprintf("%s: %s calls the method %s", fset.Position(x.Pos()), fd.Name.Name, sel.Sel.Name))
					}
				}
			}
			return true
		})
	}
	for _, fn := range r.funcs {
		if !found[fn] {
			bad = append(bad, fmt.Sprintf("%s: no function %s (the reference moved: update testReferences)", r.file, fn))
		}
	}
	return bad, nil
}

// checkedMethods are the methods of the checked packages that compute
// what the references recompute (rank.Rank.Of, WithCoefficients).
var checkedMethods = map[string]bool{"Of": true, "WithCoefficients": true}

func TestReferencesIndependent(t *testing.T) {
	for _, r := range testReferences {
		b, err := os.ReadFile(filepath.Join("../..", r.file))
		if err != nil {
			t.Fatal(err)
		}
		bad, err := referenceViolations(r, string(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range bad {
			t.Error(v)
		}
	}
}

// The check has teeth: a reference that calls the checked method or a
// function of the checked package, and a missing reference function, are
// reported; types and constants are not.
func TestReferencesIndependentDetects(t *testing.T) {
	r := testReference{"x_test.go", []string{"ref", "gone"}, "rank", []string{"Form", "FormLog"}}
	src := `package x_test
func ref(o rank.Options, f rank.Form) float64 {
	if f == rank.FormLog { return 0 }
	return o.Rank.Of(1, 0, 0) + rank.Named(f).CPU
}
func other(o rank.Options) float64 { return o.Rank.Of(1, 0, 0) }
`
	bad, err := referenceViolations(r, src)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(bad, "\n")
	for _, want := range []string{"ref uses rank.Options", "ref calls the method Of", "ref uses rank.Named", "no function gone"} {
		if !strings.Contains(got, want) {
			t.Errorf("violations\n%s\nlack %q", got, want)
		}
	}
	if len(bad) != 4 || strings.Contains(got, "other") || strings.Contains(got, "FormLog") {
		t.Errorf("violations\n%s\nwant exactly 4, none about other or FormLog", got)
	}
}
