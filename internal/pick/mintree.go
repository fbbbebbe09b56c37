package pick

import (
	"math"
	"math/rand/v2"
)

// MinTree is a tournament tree over the tiers' keys: each node holds the
// smallest key below it and how many leaves hold it, so that a change of
// one key costs O(log n), and the argmin, with a uniform choice among the
// tied, O(log n) as well, however many tiers there are. A policy whose
// keys change only where the view's states change (View.Changed) keeps
// one, so that its decision does not pass over every tier.
//
// Ties: Pick draws r uniformly in [0, ties) (one draw, and none when a
// single leaf holds the minimum) and returns the r-th tied leaf in index
// order. A leaf may be absent (not offered): it ties with nothing. NaN is larger than every number and never chosen
// over one; when every present key is NaN, the first present leaf is
// chosen without a draw.
//
// The zero value has no leaves; Reset sizes it.
type MinTree struct {
	n, size int  // leaves, and the power of two at or above n
	stale   bool // an untracked decision was scanned: the leaves are old
	val     []float64
	cnt     []int32 // leaves under the node that hold val; 0: none present
}

// Reset sizes the tree for n leaves, all absent: O(n), and it allocates.
func (t *MinTree) Reset(n int) {
	size := 1
	for size < n {
		size *= 2
	}
	t.n, t.size = n, size
	t.val = make([]float64, 2*size)
	t.cnt = make([]int32, 2*size)
}

// treeLess reports a < b in the tree's order (NaN last), treeSame a tie.
func treeLess(a, b float64) bool { return a < b || (math.IsNaN(b) && !math.IsNaN(a)) }
func treeSame(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// pull recomputes node k from its children. The usual comparisons come
// first; NaN (never a key of most rules) only when neither is smaller and
// they are not equal.
func (t *MinTree) pull(k int) {
	l, r := 2*k, 2*k+1
	cl, cr := t.cnt[l], t.cnt[r]
	vl, vr := t.val[l], t.val[r]
	switch {
	case cr == 0:
		t.val[k], t.cnt[k] = vl, cl
	case cl == 0:
		t.val[k], t.cnt[k] = vr, cr
	case vl < vr:
		t.val[k], t.cnt[k] = vl, cl
	case vr < vl:
		t.val[k], t.cnt[k] = vr, cr
	case vl == vr || math.IsNaN(vl) && math.IsNaN(vr): // a tie
		t.val[k], t.cnt[k] = vl, cl+cr
	case math.IsNaN(vl): // a number against NaN
		t.val[k], t.cnt[k] = vr, cr
	default:
		t.val[k], t.cnt[k] = vl, cl
	}
}

// Put sets leaf i to x without updating the nodes above it (Build does).
func (t *MinTree) Put(i int, x float64) {
	t.val[t.size+i], t.cnt[t.size+i] = x, 1
}

// drop makes leaf i absent without updating the nodes above it.
func (t *MinTree) drop(i int) { t.cnt[t.size+i] = 0 }

// Build recomputes every node from the leaves: O(n), after Put or drop
// of many leaves.
func (t *MinTree) Build() {
	for k := t.size - 1; k >= 1; k-- {
		t.pull(k)
	}
}

// Set changes leaf i to x and the nodes above it: O(log n).
func (t *MinTree) Set(i int, x float64) {
	t.Put(i, x)
	t.fix(i)
}

// Unset makes leaf i absent and updates the nodes above it: O(log n).
func (t *MinTree) Unset(i int) {
	t.drop(i)
	t.fix(i)
}

// fix updates the nodes above leaf i, up to the first that its change
// leaves as it was: the ones above it are then as they were too.
func (t *MinTree) fix(i int) {
	for k := (t.size + i) / 2; k >= 1; k /= 2 {
		v, c := t.val[k], t.cnt[k]
		t.pull(k)
		if t.cnt[k] == c && math.Float64bits(t.val[k]) == math.Float64bits(v) {
			return
		}
	}
}

// ties is how many present leaves hold the smallest key (0 when none is
// present).
func (t *MinTree) ties() int { return int(t.cnt[1]) }

// Min is the smallest present key and how many leaves hold it (0 when
// none is present).
func (t *MinTree) Min() (float64, int) { return t.val[1], int(t.cnt[1]) }

// Pick is the leaf of the smallest key, ties uniformly at random (see
// MinTree); −1 when no leaf is present. O(log n).
func (t *MinTree) Pick(rng *rand.Rand) int {
	c := int(t.cnt[1])
	if c == 0 {
		return -1
	}
	r := 0
	if c > 1 && !math.IsNaN(t.val[1]) {
		r = rng.IntN(c)
	}
	return t.PickAt(r)
}

// PickAt is the r-th leaf, in index order, of those holding the smallest
// key (r below their number).
func (t *MinTree) PickAt(r int) int {
	min := t.val[1]
	k := 1
	for k < t.size {
		l := 2 * k
		if cl := int(t.cnt[l]); cl > 0 && treeSame(t.val[l], min) {
			if r < cl {
				k = l
				continue
			}
			r -= cl
		}
		k = l + 1
	}
	return k - t.size
}

// All reports whether a decision on a view of n tiers needs every key:
// when the view does not track its changes (then Decide scans the keys),
// or the tree is not current (a first decision, or one after untracked
// ones, which leave it stale). Otherwise only the keys of View.Changed.
func (t *MinTree) All(tracked bool, n int) bool { return !tracked || t.stale || t.n != n }

// Decide is the leaf of the smallest key, ties uniformly at random (see
// MinTree), −1 when none is present: keys[i] is tier i's key, present[i]
// whether it is offered (nil: all are). Of a tracked view it reads the
// keys of changed alone, unless All said every key was needed, and keeps
// the tree current; of an untracked one it reads every key in a scan of
// two passes (the minimum and its ties, then the r-th tie), which gives
// the tree's answer for the same draw without building it, and leaves the
// tree stale.
func (t *MinTree) Decide(keys []float64, present []bool, changed []int, tracked bool, rng *rand.Rand) int {
	n := len(keys)
	if !tracked {
		t.stale = true
		return Scan(keys, present, rng)
	}
	if t.stale || t.n != n {
		if t.n != n {
			t.Reset(n)
		}
		for i, x := range keys {
			if present == nil || present[i] {
				t.Put(i, x)
			} else {
				t.drop(i)
			}
		}
		t.Build()
		t.stale = false
	} else {
		for _, i := range changed {
			if present == nil || present[i] {
				t.Set(i, keys[i])
			} else {
				t.Unset(i)
			}
		}
	}
	return t.Pick(rng)
}

// Scan is MinTree's rule over keys (present as in Decide) by a scan of
// two passes, the second only on a tie: O(n), nothing kept.
func Scan(keys []float64, present []bool, rng *rand.Rand) int {
	best, min, ties := -1, 0.0, 0
	for i, x := range keys {
		if present != nil && !present[i] {
			continue
		}
		switch {
		case ties == 0 || treeLess(x, min):
			best, min, ties = i, x, 1
		case treeSame(x, min):
			ties++
		}
	}
	if ties <= 1 || math.IsNaN(min) {
		return best
	}
	r := rng.IntN(ties)
	for i := best; ; i++ {
		if (present == nil || present[i]) && treeSame(keys[i], min) {
			if r == 0 {
				return i
			}
			r--
		}
	}
}
