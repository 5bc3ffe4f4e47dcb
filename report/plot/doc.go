// Package plot draws the figures of paper reproductions: line charts with
// one series per policy over an x axis, optionally with 95% confidence
// intervals as error bars, and grouped bar charts of a few categories. A
// Figure is plain data; WriteSVG renders it with gonum.org/v1/plot and
// WriteCSV writes the same numbers in long format, so every picture comes
// with a machine-readable table of what it shows.
//
// Promises:
//   - Validate is the single gate: WriteSVG and WriteCSV call it first and
//     write nothing if the figure is invalid; its errors name the figure ID
//     and the offending series and index;
//   - output is deterministic: the same Figure gives byte-identical SVG and
//     CSV (nothing depends on time, randomness, map order or the machine);
//   - the SVG is well-formed XML, about 16 cm x 10 cm, uses the Liberation
//     Sans font (metric-compatible with Arial and Helvetica, which are named
//     as fallbacks), and keeps the legend outside the data area (to the
//     right, or below when the series names are long);
//   - the axes of line charts reach 4% of the data's span (of the
//     logarithms' span on a log axis) beyond the data and its confidence
//     bounds at each end, so a marker or an error bar's cap at an end of
//     an axis is drawn whole inside the frame; bar charts have 5% of
//     headroom above the tallest bar;
//   - series differ in colour (a colour-blind-safe palette), dash pattern
//     and marker shape, or for bars in colour and hatching, so they stay
//     distinguishable in grayscale print;
//   - the CSV header is "series,x,y,ci_low,ci_high", one row per point in
//     series order, numbers formatted by strconv.FormatFloat(v, 'g', -1,
//     64) so they round-trip exactly; confidence cells are empty when the
//     series has no bounds or the bound is NaN;
//   - the package has no mutable package-level state and does not change
//     gonum/plot's global defaults; rendering different figures
//     concurrently is safe.
package plot
