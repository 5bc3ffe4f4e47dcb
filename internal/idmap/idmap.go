package idmap

// Map maps keys of an integer type K to values V. The zero Map is empty
// and ready to use. A Map is not safe for concurrent use.
type Map[K ~int64, V any] struct {
	cells []cell[K, V]
	n     int  // keys held
	shift uint // 64 - log2(len(cells))
}

type cell[K ~int64, V any] struct {
	key  K
	used bool
	val  V
}

// minCells is the size of the first table.
const minCells = 16

// home is the cell where probing for k starts.
func (m *Map[K, V]) home(k K) int {
	return int((uint64(k) * 0x9E3779B97F4A7C15) >> m.shift)
}

// find returns the cell of k, or -1.
func (m *Map[K, V]) find(k K) int {
	if m.n == 0 {
		return -1
	}
	mask := len(m.cells) - 1
	for i := m.home(k); ; i = (i + 1) & mask {
		c := &m.cells[i]
		if !c.used {
			return -1
		}
		if c.key == k {
			return i
		}
	}
}

// Len is the number of keys held.
func (m *Map[K, V]) Len() int { return m.n }

// Get returns the value of k and whether k is held.
func (m *Map[K, V]) Get(k K) (V, bool) {
	if i := m.find(k); i >= 0 {
		return m.cells[i].val, true
	}
	var zero V
	return zero, false
}

// Has reports whether k is held.
func (m *Map[K, V]) Has(k K) bool { return m.find(k) >= 0 }

// Ptr returns a pointer to k's value, or nil if k is not held. The
// pointer is valid until the next Set, Put, Add, Delete or Take.
func (m *Map[K, V]) Ptr(k K) *V {
	if i := m.find(k); i >= 0 {
		return &m.cells[i].val
	}
	return nil
}

// Set makes v the value of k.
func (m *Map[K, V]) Set(k K, v V) {
	if c := m.slot(k); c.used {
		c.val = v
	} else {
		*c = cell[K, V]{key: k, used: true, val: v}
		m.n++
	}
}

// Put returns a pointer to k's value, adding k with the zero value if
// it is not held: `*m.Put(k) = v` is Set(k, v) without passing v by
// value, which costs about twice as much for a large value (BenchmarkPut).
// The pointer is valid until the next Set, Put, Add, Delete or Take.
func (m *Map[K, V]) Put(k K) *V {
	c := m.slot(k)
	if !c.used {
		*c = cell[K, V]{key: k, used: true}
		m.n++
	}
	return &c.val
}

// Add makes v the value of k if k is not held and reports true; if k
// is held, it changes nothing and returns k's value and false (Get then
// Set, with one probe).
func (m *Map[K, V]) Add(k K, v V) (V, bool) {
	c := m.slot(k)
	if c.used {
		return c.val, false
	}
	*c = cell[K, V]{key: k, used: true, val: v}
	m.n++
	return v, true
}

// slot returns k's cell, or the empty cell where k goes, the table grown
// first if one more key would fill half of it.
func (m *Map[K, V]) slot(k K) *cell[K, V] {
	if 2*(m.n+1) > len(m.cells) {
		m.grow()
	}
	mask := len(m.cells) - 1
	for i := m.home(k); ; i = (i + 1) & mask {
		if c := &m.cells[i]; !c.used || c.key == k {
			return c
		}
	}
}

// Delete removes k; it reports whether k was held.
func (m *Map[K, V]) Delete(k K) bool {
	i := m.find(k)
	if i < 0 {
		return false
	}
	m.remove(i)
	return true
}

// Take removes k and copies its value into *into; it reports whether k
// was held (*into is left alone if not). Get then Delete with one probe;
// the value is copied into place rather than returned, which costs half
// as much for a large value (BenchmarkTake).
func (m *Map[K, V]) Take(k K, into *V) bool {
	i := m.find(k)
	if i < 0 {
		return false
	}
	*into = m.cells[i].val
	m.remove(i)
	return true
}

// remove empties the used cell i.
func (m *Map[K, V]) remove(i int) {
	// Backward shift: move later members of the probe run into the hole
	// when their home is not between the hole and where they sit.
	mask := len(m.cells) - 1
	for j := (i + 1) & mask; m.cells[j].used; j = (j + 1) & mask {
		h := m.home(m.cells[j].key)
		var stays bool // h lies cyclically in (i, j]
		if i <= j {
			stays = i < h && h <= j
		} else {
			stays = i < h || h <= j
		}
		if !stays {
			m.cells[i] = m.cells[j]
			i = j
		}
	}
	m.cells[i] = cell[K, V]{}
	m.n--
}

// grow doubles the table and re-inserts every key.
func (m *Map[K, V]) grow() {
	old := m.cells
	size := max(minCells, 2*len(old))
	m.cells = make([]cell[K, V], size)
	m.shift = 64
	for s := size; s > 1; s >>= 1 {
		m.shift--
	}
	m.n = 0
	for i := range old {
		if old[i].used {
			m.Set(old[i].key, old[i].val)
		}
	}
}
