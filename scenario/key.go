package scenario

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// maxKeyLen bounds Key's length, well under the 255-byte file name limit
// of common file systems.
const maxKeyLen = 200

// Key returns a stable, human-readable encoding of the settings that
// determine the point's results, for use as a file name stem, e.g.
//
//	grid_grid=deferred_ai=0.3_local=sq_ia=0.048_svc=1_sites=4x8_stop=32000_warmup=0_seed=42_reps=10
//
// It uses only the characters [a-z0-9._=-]: the model, then key=value
// pairs joined by "_" in a fixed order (policy, workload, platform: the
// model's keyParts, in the order of the settings' key positions; then
// stop, warm-up, seed, replications). Settings the model or the point's
// policy does not read are left out, and so are Name, Workers and
// Metrics, which do not change results. Hence two scenarios have the same key exactly
// when they would compute the same thing; in particular the points of one
// sweep have distinct keys unless they differ only in a setting their
// policy ignores (see Point).
//
// Sites are written as runs of identical sites, "<count>x<procs>" with
// "s<speed>" when the speed is not 1, joined by "-" (4, 8, 8, 12
// processors: "1x4-2x8-1x12"). A string value that is not already made of
// [a-z0-9.-] (such as a trace name with capitals) is lower-cased, other
// characters become "-", and 8 hex digits of its FNV-1a hash are appended
// so that distinct names stay distinct. A key longer than 200 bytes is cut
// to 183 and ends with "-" and 16 hex digits of the FNV-1a hash of the
// whole key.
func (s Scenario) Key() string {
	var b keyBuilder
	b.raw(clean(s.Model))
	parts := keyParts()[s.Model]
	for i := 0; i < len(parts); {
		// A group: a named part and the unnamed parts appended to it,
		// left out together when every one of them may be and is at its
		// default.
		j := i + 1
		for j < len(parts) && parts[j].name == "" {
			j++
		}
		group := parts[i:j]
		i = j
		omit := true
		for _, kp := range group {
			// A setting the point does not read is zero, and so may be
			// one a hand-built Scenario leaves at its default; a part
			// marked zeroDistinct writes a zero the point reads.
			text, isZero := keyText(&s, kp.path)
			atDefault := text == defaultText(kp.path) || isZero && (!kp.zeroDistinct || !usedIn(&s, kp.path))
			if !kp.omitDefault || !atDefault {
				omit = false
			}
		}
		if omit {
			continue
		}
		for _, kp := range group {
			if !usedIn(&s, kp.path) {
				continue
			}
			text, _ := keyText(&s, kp.path)
			if kp.name == "" {
				b.WriteString(kp.join)
				b.WriteString(text)
				continue
			}
			b.add(kp.name, text)
		}
	}
	if s.Stop.Completed == 0 {
		b.add("stop", "trace")
	} else {
		b.add("stop", strconv.FormatInt(s.Stop.Completed, 10))
	}
	b.add("warmup", strconv.FormatInt(s.Warmup.Jobs, 10))
	b.add("seed", strconv.FormatUint(s.Seed, 10))
	b.add("reps", strconv.Itoa(s.Replications))
	k := b.String()
	if len(k) > maxKeyLen {
		h := fnv.New64a()
		h.Write([]byte(k))
		k = fmt.Sprintf("%s-%016x", k[:maxKeyLen-17], h.Sum64())
	}
	return k
}

type keyBuilder struct{ strings.Builder }

func (b *keyBuilder) raw(s string) { b.WriteString(s) }

func (b *keyBuilder) add(k, v string) {
	b.WriteByte('_')
	b.WriteString(k)
	b.WriteByte('=')
	b.WriteString(v)
}

func num(f float64) string {
	return strings.ToLower(strings.ReplaceAll(strconv.FormatFloat(f, 'g', -1, 64), "+", ""))
}

// clean keeps a string made of [a-z0-9.-] as it is; any other string is
// lower-cased, its other characters become "-", and a hash of the
// original is appended.
func clean(s string) string {
	ok := s != ""
	for i := 0; i < len(s) && ok; i++ {
		ok = isKeyChar(s[i])
	}
	if ok {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r < 128 && isKeyChar(byte(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	h := fnv.New32a()
	h.Write([]byte(s))
	fmt.Fprintf(&b, "-%08x", h.Sum32())
	return b.String()
}

func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-'
}

func sitesKey(sites []Site) string {
	var parts []string
	for i := 0; i < len(sites); {
		j := i
		for j < len(sites) && sites[j] == sites[i] {
			j++
		}
		part := fmt.Sprintf("%dx%d", j-i, sites[i].Procs)
		if sites[i].Speed != 1 {
			part += "s" + num(sites[i].Speed)
		}
		parts = append(parts, part)
		i = j
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "-")
}

// reservationsKey writes windows as their number and 8 hex digits of the
// FNV-1a hash of their canonical forms ("2-1a2b3c4d"): a count N and the
// ids 0-(N-1) are the same window.
func reservationsKey(ws []string) string {
	if len(ws) == 0 {
		return "none"
	}
	h := fnv.New32a()
	for _, w := range ws {
		h.Write([]byte(canonicalReservation(w)))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%d-%08x", len(ws), h.Sum32())
}
