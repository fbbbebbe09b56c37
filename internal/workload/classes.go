package workload

import "math/rand/v2"

// Class is one class of tasks as the workload draws it: the share of
// tasks in it and their size law (the zero Dist: the spec's Size).
type Class struct {
	Share float64
	Size  Dist
}

// The delay stream's pairs (task, classPair) and (task, patiencePair)
// draw a task's class and its patience: counter-based like its delays, so
// that no other draw moves and a tape's reader finds the same class from
// the task's Seq alone.
const (
	classPair    = 1 << 30
	patiencePair = classPair + 1
)

// classOf draws the class among cl of the task of sequence number seq.
func (s *Source) classOf(cl []Class, seq int) int {
	u := s.pr.at(seq, classPair).Float64()
	for k := range cl[:len(cl)-1] {
		if u -= cl[k].Share; u < 0 {
			return k
		}
	}
	return len(cl) - 1
}

// drawClass sets t's class, after its Seq, and returns its size law.
func (s *Source) drawClass(t *Task) *Dist {
	t.Class = 0
	if len(s.spec.Classes) == 0 {
		return &s.spec.Size
	}
	t.Class = s.classOf(s.spec.Classes, t.Seq)
	if c := &s.spec.Classes[t.Class]; c.Size.Mean() > 0 {
		return &c.Size
	}
	return &s.spec.Size
}

// Patience draws the patience of the task of sequence number seq from
// law, s: the same number whenever it is read.
func (s *Source) Patience(seq int, law *Dist) float64 {
	if !law.Random() {
		return law.Mean()
	}
	return law.Sample(s.patienceRand(seq))
}

func (s *Source) patienceRand(seq int) *rand.Rand { return s.pr.at(seq, patiencePair) }
