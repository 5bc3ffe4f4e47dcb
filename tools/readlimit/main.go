package main

import (
	"bufio"
	"bytes"
	stdgzip "compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	kgzip "github.com/klauspost/compress/gzip"
)

// numFields is the number of fields of an SWF job line.
const numFields = 18

// result is what a read found.
type result struct {
	Jobs      int64   // job lines
	BadFields int64   // fields that are not numbers (or missing)
	Sum       float64 // sum of every parsed field
}

// gunzip is the gzip decompressor: "klauspost" (github.com/klauspost/
// compress/gzip, the one schedlab uses) or "std" (compress/gzip).
var gunzip = "klauspost"

func newGzip(r io.Reader) (io.Reader, error) {
	if gunzip == "std" {
		return stdgzip.NewReader(r)
	}
	return kgzip.NewReader(r)
}

func main() {
	flag.StringVar(&gunzip, "gzip", gunzip, "gzip decompressor: klauspost or std")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: readlimit [-gzip klauspost|std] TRACE.swf[.gz]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || (gunzip != "klauspost" && gunzip != "std") {
		flag.Usage()
		os.Exit(2)
	}
	t0 := time.Now()
	res, err := readFile(flag.Arg(0))
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

// read parses the SWF text in r, gzip-compressed or plain. The text is
// read in chunks of 1 MB and parsed in place: whole lines from the chunk,
// the unfinished last one carried over to the next.
func read(r io.Reader) (result, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var in io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := newGzip(br)
		if err != nil {
			return result{}, err
		}
		in = gz
	}
	var res result
	buf := make([]byte, chunk)
	have := 0 // bytes of an unfinished line at the front of buf
	for {
		n, err := io.ReadFull(in, buf[have:])
		data := buf[:have+n]
		last := bytes.LastIndexByte(data, '\n')
		eof := err == io.EOF || err == io.ErrUnexpectedEOF
		if eof {
			last = len(data) - 1 // the last line may have no newline
		} else if err != nil {
			return res, err
		}
		if last < 0 {
			return res, fmt.Errorf("after %d jobs: a line longer than %d bytes", res.Jobs, chunk)
		}
		parseLines(data[:last+1], &res)
		if eof {
			return res, nil
		}
		have = copy(buf, data[last+1:])
	}
}

// chunk is the read size, and the longest line accepted.
const chunk = 1 << 20

// parseLines adds the fields of the lines in b to res.
func parseLines(b []byte, res *result) {
	for len(b) > 0 {
		end := bytes.IndexByte(b, '\n')
		if end < 0 {
			end = len(b)
		}
		parseLine(b[:end], res)
		if end == len(b) {
			return
		}
		b = b[end+1:]
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// parseLine adds one line's fields to res (the line without its newline).
func parseLine(line []byte, res *result) {
	i := 0
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	if i == len(line) || line[i] == ';' {
		return
	}
	res.Jobs++
	n := 0
	for i < len(line) && n < numFields {
		if isSpace(line[i]) {
			i++
			continue
		}
		s := i
		for i < len(line) && !isSpace(line[i]) {
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

// number parses an optionally signed integer or decimal (digits, a point,
// digits) directly, anything else (exponents, long numbers) with strconv.
func number(b []byte) (float64, bool) {
	d := b
	neg := d[0] == '-'
	if neg {
		d = d[1:]
	}
	var mant int64
	digits, frac := 0, -1 // frac: digits after the point (-1: no point)
	for _, c := range d {
		switch {
		case c >= '0' && c <= '9':
			mant = mant*10 + int64(c-'0')
			digits++
			if frac >= 0 {
				frac++
			}
		case c == '.' && frac < 0:
			frac = 0
		default:
			digits = 99 // not a plain decimal
		}
	}
	if digits == 0 || digits > 18 {
		f, err := strconv.ParseFloat(string(b), 64)
		return f, err == nil
	}
	v := float64(mant)
	for ; frac > 0; frac-- {
		v /= 10
	}
	if neg {
		v = -v
	}
	return v, true
}
