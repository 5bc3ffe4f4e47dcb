// Package signal is a time series as a step function of the run's
// time: the carbon intensity of the electricity a machine draws
// (gCO2/kWh) or its price (currency per kWh), docs/energy.md ("Carbon
// and price signals"). A Signal holds each row's value from its time
// until the next row's (the last on for ever, or, with a period, the
// rows repeating); Integral integrates it exactly between two times
// (sums of products over the rows between them), Next gives its change
// points and Lowest the lowest value of a window and when it is first
// reached. Parse and ReadFile read the CSV form, "TIME,VALUE" rows
// with named bounds (MaxRows, MaxLine, MaxTime, MaxValue) and errors
// naming the file, the line and the field. A leaf like platform: the
// standard library only.
package signal
