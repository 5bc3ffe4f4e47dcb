package digits

import (
	"encoding/binary"
	"strconv"
)

// pair[x] is the two digits of x < 100 as a little-endian 16-bit word.
var pair = func() (t [100]uint64) {
	for x := range t {
		t[x] = uint64('0'+x/10) | uint64('0'+x%10)<<8
	}
	return t
}()

// AppendInt appends the decimal form of v to b, as strconv.AppendInt(b,
// v, 10) does.
func AppendInt(b []byte, v int64) []byte {
	if v < 0 || v >= 1e8 {
		return strconv.AppendInt(b, v, 10)
	}
	x := uint32(v)
	if x < 10 {
		return append(b, byte('0'+x))
	}
	hi, lo := x/10000, x%10000
	// In memory order: the digits of hi/100, hi%100, lo/100, lo%100.
	w := pair[hi/100] | pair[hi%100]<<16 | pair[lo/100]<<32 | pair[lo%100]<<48
	n := 8
	switch {
	case x < 100:
		n = 2
	case x < 1000:
		n = 3
	case x < 10000:
		n = 4
	case x < 100000:
		n = 5
	case x < 1000000:
		n = 6
	case x < 10000000:
		n = 7
	}
	w >>= 8 * (8 - n) // drop the leading zeros (the low bytes)
	at := len(b)
	if cap(b)-at < 8 {
		b = append(b, make([]byte, 8)...)[:at]
	}
	binary.LittleEndian.PutUint64(b[at:at+8], w)
	return b[:at+n]
}
