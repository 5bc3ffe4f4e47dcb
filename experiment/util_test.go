package experiment

import (
	"fmt"
	"strconv"
)

func fmtSscan(s string, v any) (int, error) { return fmt.Sscan(s, v) }
func itoa(i int) string                     { return strconv.Itoa(i) }

func fmtS(f string, a ...any) string { return fmt.Sprintf(f, a...) }
