package main

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

// Two job lines and a header.
const sample = `; Version: 2.2
; MaxProcs: 4

1 0 5 10 2 -1 -1 2 20 -1 1 3 1 -1 1 -1 -1 -1
  2 7 0 3.5 4 -1 -1 4 5 -1 1 3 1 -1 1 -1 -1 -1
`

func TestReadPlainAndGzip(t *testing.T) {
	// Line 1: the positive fields 1+5+10+2+2+20+1+3+1+1 = 46, seven -1: 39.
	// Line 2: 2+7+3.5+4+4+5+1+3+1+1 = 31.5, seven -1: 24.5. Sum 63.5.
	want := result{Jobs: 2, Sum: 63.5}
	got, err := read(strings.NewReader(sample))
	if err != nil || got != want {
		t.Fatalf("plain: got %+v, %v; want %+v", got, err, want)
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write([]byte(sample))
	w.Close()
	for _, g := range []string{"klauspost", "std"} {
		gunzip = g
		got, err = read(bytes.NewReader(z.Bytes()))
		if err != nil || got != want {
			t.Fatalf("gzip (%s): got %+v, %v; want %+v", g, got, err, want)
		}
	}
	gunzip = "klauspost"
}

func TestBadAndMissingFields(t *testing.T) {
	// "x" is not a number, and the line has 3 fields of 18: 1 + 15 bad.
	got, err := read(strings.NewReader("1 x 2"))
	want := result{Jobs: 1, BadFields: 16, Sum: 3}
	if err != nil || got != want {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
}

// Lines cut across reads, CRLF endings, no final newline, decimals and a
// number strconv must take (an exponent).
func TestChunksAndNumbers(t *testing.T) {
	line := "1 0 5 10.25 2 -1 -1 2 20 -1 1 3 1 -1 1 -1 -1 1e2\r\n"
	// 1+5+10.25+2+2+20+1+3+1+1+100 = 146.25, six -1: 140.25 per line.
	n := 3*chunk/len(line) + 7
	text := strings.Repeat(line, n)
	text = text[:len(text)-2] // the last line without its newline
	got, err := read(strings.NewReader(text))
	want := result{Jobs: int64(n), Sum: 140.25 * float64(n)}
	if err != nil || got != want {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
}
