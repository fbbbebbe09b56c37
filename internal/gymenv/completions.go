package gymenv

// completions is a binary min-heap of tasks by completion instant:
// container/heap's algorithm on a concrete type, so that a push or a pop
// neither boxes a Record nor calls through an interface.
type completions []Record

func (h *completions) push(r Record) {
	*h = append(*h, r)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p].done <= s[i].done {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *completions) pop() Record {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && s[r].done < s[l].done {
			m = r
		}
		if s[m].done >= s[i].done {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
