package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines bounds the length of a function (its declaration to its
// closing brace) in the packages that assemble runs: a function that
// outgrows it is usually an order of stages or checks that wants to be a
// declared list (experiment/tracestages.go) and a short driver.
const maxFuncLines = 120

// funcLenDirs are the folders whose functions maxFuncLines bounds
// (their code, not their tests).
var funcLenDirs = []string{"experiment", "cmd/schedlab/cli", "scenario"}

// funcLenExceptions are the functions known to be longer, by
// "folder/file.go:Name", with their length today: each is to be split,
// and none may grow.
var funcLenExceptions = map[string]int{}

// TestFuncLength checks that no function of funcLenDirs is longer than
// maxFuncLines lines, but for the known exceptions.
func TestFuncLength(t *testing.T) {
	root := filepath.Join("..", "..")
	seen := map[string]bool{}
	for _, dir := range funcLenDirs {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("%s: no Go files", dir)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
				name := fd.Name.Name
				if fd.Recv != nil && len(fd.Recv.List) > 0 {
					name = recvName(fd.Recv.List[0].Type) + "." + name
				}
				key := dir + "/" + filepath.Base(path) + ":" + name
				limit, known := funcLenExceptions[key]
				if known {
					seen[key] = true
				} else {
					limit = maxFuncLines
				}
				if n > limit {
					t.Errorf("%s is %d lines long, more than %d: split it (a declared list of steps and a short driver)", key, n, limit)
				}
			}
		}
	}
	for key := range funcLenExceptions {
		if !seen[key] {
			t.Errorf("funcLenExceptions names %s, which is gone: remove it", key)
		}
	}
}

// recvName is the type name of a method's receiver.
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}
