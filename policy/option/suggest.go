package option

import "strings"

// Suggest is the known name closest to name, for a "did you mean": the
// one equal to it but for case, else the one within two edits (a letter
// added, dropped or changed) if exactly one is; "" when none is.
func Suggest(name string, known []string) string {
	for _, k := range known {
		if strings.EqualFold(k, name) {
			return k
		}
	}
	var best []string
	for _, k := range known {
		if editDistance(strings.ToLower(name), k, 3) <= 2 {
			best = append(best, k)
		}
	}
	if len(best) == 1 {
		return best[0]
	}
	return ""
}

// editDistance is the Levenshtein distance of a and b, or limit when it
// is limit or more (names are short; the rows stay small).
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit)
}
