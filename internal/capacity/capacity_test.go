package capacity

import (
	"math"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/workload"
)

func exp(t *testing.T, mean float64) workload.Dist {
	t.Helper()
	d, err := workload.New("exponential", mean, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestTimelineFollowsFixedEpisodes: service drains at each episode's
// speed, a tier that goes down loses the task at that instant, and the
// down spans read as such, worked out by hand.
func TestTimelineFollowsFixedEpisodes(t *testing.T) {
	c := &Capacity{Episodes: []Episode{{Start: 2, End: 4, Speed: 0.25}, {Start: 10, End: 12, Down: true}}}
	tl := New(c, [2]uint64{1, 2}, 0)
	for _, f := range []struct {
		start, work, want float64
		lost              bool
	}{
		{0, 1, 1, false},
		{1, 2, 4.5, false}, // 1 by 2, 0.5 by 4 at 0.25, 0.5 after
		{3, 1, 4.75, false},
		{9, 2, 10, true},  // down at 10 with it in service
		{11, 1, 11, true}, // down at its start
		{12, 1, 13, false},
	} {
		got, lost := tl.Finish(f.start, f.work)
		if math.Abs(got-f.want) > 1e-12 || lost != f.lost {
			t.Errorf("Finish(%v, %v) = %v, %v; want %v, %v", f.start, f.work, got, lost, f.want, f.lost)
		}
	}
	for x, want := range map[float64]bool{0: false, 3: false, 9.99: false, 10: true, 11.5: true, 12: false} {
		if tl.Down(x) != want {
			t.Errorf("Down(%v) = %v, want %v", x, !want, want)
		}
	}
	var none *Timeline // a tier at its speed, always
	if none.DownAt(10.5) || !New(c, [2]uint64{1, 2}, 0).DownAt(10.5) {
		t.Errorf("DownAt(10.5): %v for no timeline, want false; want true for the episodes'", none.DownAt(10.5))
	}
	for _, n := range []struct{ t, until, want float64 }{{0, 100, 10}, {0, 10, math.Inf(1)}, {11, 20, 11}, {12, 1e9, math.Inf(1)}} {
		if got := tl.NextDown(n.t, n.until); got != n.want {
			t.Errorf("NextDown(%v, %v) = %v, want %v", n.t, n.until, got, n.want)
		}
	}
}

// TestWorkIntegratesTheRate: Work is ∫ rate over the span, worked out by
// hand across a slow-down and a down span, and Finish's inverse.
func TestWorkIntegratesTheRate(t *testing.T) {
	c := &Capacity{Episodes: []Episode{{Start: 2, End: 4, Speed: 0.25}, {Start: 10, End: 12, Down: true}}}
	tl := New(c, [2]uint64{1, 2}, 0)
	for _, w := range []struct{ a, b, want float64 }{
		{0, 1, 1}, {1, 5, 1 + 0.5 + 1}, {3, 3, 0}, {9, 13, 1 + 0 + 1}, {2.5, 3.5, 0.25}, {12, 100, 88},
	} {
		if got := tl.Work(w.a, w.b); math.Abs(got-w.want) > 1e-12 {
			t.Errorf("Work(%v, %v) = %v, want %v", w.a, w.b, got, w.want)
		}
	}
	if end, _ := tl.Finish(1, 2.7); math.Abs(tl.Work(1, end)-2.7) > 1e-12 {
		t.Errorf("Work(1, Finish(1, 2.7) = %v) = %v, want 2.7", end, tl.Work(1, end))
	}
}

// downs lists the first n down spans' starts of timeline tl, read on a
// grid of step dt.
func downs(tl *Timeline, n int, dt float64) []float64 {
	var at []float64
	was := false
	for x := 0.0; len(at) < n; x += dt {
		d := tl.Down(x)
		if d && !was {
			at = append(at, x)
		}
		was = d
	}
	return at
}

// TestRandomEpisodesOwnStreams: the same seed and tier give the same
// episodes, another tier others, and adding slow-downs leaves the
// failures' draws where they were (each kind has its own stream).
func TestRandomEpisodesOwnStreams(t *testing.T) {
	fail := &Recurring{Gap: exp(t, 20), Length: exp(t, 2)}
	slow := &Recurring{Gap: exp(t, 5), Length: exp(t, 5), Speed: 0.5}
	seed := [2]uint64{7, 9}
	a := downs(New(&Capacity{Failures: fail}, seed, 3), 50, 0.01)
	b := downs(New(&Capacity{Failures: fail, Slowdowns: slow}, seed, 3), 50, 0.01)
	c := downs(New(&Capacity{Failures: fail}, seed, 4), 50, 0.01)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("down span %d starts at %v alone, at %v with slow-downs", i, a[i], b[i])
		}
	}
	same := 0
	for i := range a {
		if a[i] == c[i] {
			same++
		}
	}
	if same > 0 {
		t.Errorf("tiers 3 and 4 share %d of 50 down starts", same)
	}
}

// TestSettleKeepsAnswers: a timeline settled at each read, which drops
// the pieces behind it, answers as one that keeps them all.
func TestSettleKeepsAnswers(t *testing.T) {
	c := &Capacity{Slowdowns: &Recurring{Gap: exp(t, 1), Length: exp(t, 1), Speed: 0.3},
		Failures: &Recurring{Gap: exp(t, 10), Length: exp(t, 0.5)}}
	settled, kept := New(c, [2]uint64{3, 4}, 1), New(c, [2]uint64{3, 4}, 1)
	lost := 0
	for k := range 20000 {
		x := 0.05 * float64(k)
		settled.Settle(x)
		f1, l1 := settled.Finish(x, 0.7)
		f2, l2 := kept.Finish(x, 0.7)
		if f1 != f2 || l1 != l2 || settled.Down(x) != kept.Down(x) {
			t.Fatalf("at %v: settled %v %v, kept %v %v", x, f1, l1, f2, l2)
		}
		if l1 {
			lost++
		}
	}
	if len(settled.at) >= len(kept.at)/4 || lost == 0 {
		t.Errorf("settled keeps %d pieces, the other %d; %d lost", len(settled.at), len(kept.at), lost)
	}
}

// TestCheck: each problem is named with its tier, and tiers down all at
// once by their fixed episodes are found with the span.
func TestCheck(t *testing.T) {
	ok := &Capacity{Episodes: []Episode{{Start: 5, End: 10, Down: true}}}
	other := &Capacity{Episodes: []Episode{{Start: 7, End: 12, Down: true}}}
	for _, c := range []struct {
		caps []*Capacity
		want string // "" for none
	}{
		{[]*Capacity{ok, {}}, ""},
		{[]*Capacity{ok, other}, "every tier is down at once in [7, 10)"},
		{[]*Capacity{{Episodes: []Episode{{Start: 3, End: 5, Speed: 1}, {Start: 4, End: 6, Speed: 1}}}}, "tier 0 episode 1 starts at 4, before episode 0 ends (5)"},
		{[]*Capacity{{}, {Episodes: []Episode{{Start: 3, End: 2, Speed: 1}}}}, "tier 1 episode 0"},
		{[]*Capacity{{Slowdowns: &Recurring{Gap: exp(t, 1), Length: exp(t, 1)}}}, "tier 0 slowdowns: speed 0"},
		{[]*Capacity{{Failures: &Recurring{Gap: exp(t, 1)}}}, "tier 0 failures: gap mean 1, length mean 0"},
	} {
		errs := Check(c.caps)
		switch {
		case c.want == "" && len(errs) > 0:
			t.Errorf("unexpected %v", errs)
		case c.want != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), c.want)):
			t.Errorf("got %v, want one error with %q", errs, c.want)
		}
	}
}
