module github.com/schedlab/schedlab

go 1.26

require (
	github.com/alecthomas/kong v1.17.0
	github.com/rogpeppe/go-internal v1.14.1
)

require (
	golang.org/x/sys v0.35.0 // indirect
	golang.org/x/tools v0.36.0 // indirect
)
