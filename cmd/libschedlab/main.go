package main

// main is empty: the package is built with -buildmode=c-shared (doc.go).
func main() {}
