package pq

// Entry is an id in Times and its time.
type Entry struct {
	At float64
	ID int32
}

// Times is a min-heap of (time, id) entries by time: Times[0] is the
// earliest. Once pushed, only the top is read or changed, and only through
// Down: its time moved later, or the top taken off (the last entry put in
// its place, the slice shortened by one). It is a bare slice, not a type
// with Pop and Retime methods, so that Down is inlined where it is called:
// either method would be too large to inline itself.
type Times []Entry

// Push adds id at time at.
func (h *Times) Push(at float64, id int) {
	*h = append(*h, Entry{at, int32(id)})
	d := *h
	i := len(d) - 1
	x := d[i]
	for i > 0 {
		up := (i - 1) / 2
		if !(x.At < d[up].At) {
			break
		}
		d[i] = d[up]
		i = up
	}
	d[i] = x
}

// Down puts x at the top in place of the top entry and restores the
// order: the top entry with a later time, or the last entry when the top
// is taken off.
func (h Times) Down(x Entry) {
	n, i := len(h), 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].At < h[l].At {
			m = r
		}
		if !(h[m].At < x.At) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = x
}
