package cli

import (
	"io"

	"github.com/schedlab/schedlab/metrics"
)

func writeJSON(w io.Writer, v any) error { return metrics.WriteJSON(w, v) }
