// Command gendocs rewrites the key reference tables of
// docs/scenarios.md from the declarations (the scenario package's
// settings table and the registry's policies and options):
//
//	go generate ./scenario/
//
// runs it as "go run ../tools/gendocs ../docs/scenarios.md". Each table
// stands between its marker lines (scenario.WriteDocTables); the rest of
// the page is left as it is, and the file is written only when a table
// changes. scenario's TestDocsSettingsTables fails when the page is not
// up to date.
package main
