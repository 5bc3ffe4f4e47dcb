package swf

// alwaysCheck makes parseLine check every field's value even when the
// fast path showed that none can be refused. parseLine reads it as
// invariants.Enabled && alwaysCheck: in the default build that is the
// constant false and the check is compiled out; only a test built with
// the tag invariants sets it (TestParseLineSkippedChecksSameAnswers).
var alwaysCheck = false
