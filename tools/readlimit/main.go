package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// numFields is the number of fields of an SWF job line.
const numFields = 18

// result is what a read found.
type result struct {
	Jobs      int64   // job lines
	BadFields int64   // fields that are not numbers (or missing)
	Sum       float64 // sum of every parsed field
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: readlimit TRACE.swf[.gz]")
		os.Exit(2)
	}
	t0 := time.Now()
	res, err := readFile(os.Args[1])
	el := time.Since(t0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "readlimit:", err)
		os.Exit(1)
	}
	fmt.Printf("%d jobs, %d bad fields, checksum %.6g, read in %.3f s\n", res.Jobs, res.BadFields, res.Sum, el.Seconds())
}

func readFile(path string) (result, error) {
	f, err := os.Open(path)
	if err != nil {
		return result{}, err
	}
	defer f.Close()
	return read(f)
}

// read parses the SWF text in r, gzip-compressed or plain.
func read(r io.Reader) (result, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var in io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return result{}, err
		}
		in = gz
	}
	lines := bufio.NewReaderSize(in, 64<<10)
	var res result
	for {
		line, err := lines.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return res, fmt.Errorf("line of %d jobs: longer than 64 KB", res.Jobs+1)
		}
		parseLine(line, &res)
		if err == io.EOF {
			return res, nil
		}
		if err != nil {
			return res, err
		}
	}
}

// parseLine adds one line's fields to res.
func parseLine(line []byte, res *result) {
	line = bytes.TrimLeft(line, " \t")
	if len(line) == 0 || line[0] == ';' || line[0] == '\n' || line[0] == '\r' {
		return
	}
	res.Jobs++
	n := 0
	for i := 0; i < len(line) && n < numFields; {
		c := line[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			i++
			continue
		}
		s := i
		for i < len(line) && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && line[i] != '\n' {
			i++
		}
		v, ok := number(line[s:i])
		if !ok {
			res.BadFields++
		}
		res.Sum += v
		n++
	}
	res.BadFields += int64(numFields - n)
}

// number parses an optionally signed integer directly, anything else with
// strconv.
func number(b []byte) (float64, bool) {
	neg := b[0] == '-'
	d := b
	if neg {
		d = b[1:]
	}
	var v int64
	for k, c := range d {
		if c < '0' || c > '9' || k >= 18 {
			f, err := strconv.ParseFloat(string(b), 64)
			return f, err == nil
		}
		v = v*10 + int64(c-'0')
	}
	if len(d) == 0 {
		return 0, false
	}
	if neg {
		v = -v
	}
	return float64(v), true
}
