//go:build invariants

package swf

// alwaysCheck makes parseLine check every field's value even when the
// fast path showed that none can be refused. Only the build with the tag
// invariants can set it (TestParseLineSkippedChecksSameAnswers); in the
// default build it is the constant false (check_off.go).
var alwaysCheck = false
