package balancer

import (
	"fmt"
	"math"
	"strings"
)

// Program is a real load balancer that offload can run.
type Program string

// The programs, as their executables are named.
const (
	HAProxy Program = "haproxy"
	Nginx   Program = "nginx"
)

// Algorithm is one balancing algorithm of a real balancer.
type Algorithm struct {
	// Label names the balancer and its algorithm in offload's outputs
	// ("haproxy:leastconn"): the program, a colon, the algorithm as the
	// program's manual names it, or "random2" for the power of two choices.
	Label   string
	Program Program
	// Directive is what the generated configuration says: HAProxy's
	// "balance" argument, or nginx's upstream method ("" for its default,
	// weighted round-robin).
	Directive string
	// Policy is offload's registry policy with the same rule, the one a
	// parity study sets beside this balancer.
	Policy string
}

// algorithms is the table Algorithms returns, in the order outputs list
// them.
var algorithms = []Algorithm{
	{Label: "haproxy:roundrobin", Program: HAProxy, Directive: "roundrobin", Policy: "round-robin"},
	{Label: "haproxy:leastconn", Program: HAProxy, Directive: "leastconn", Policy: "least-conn"},
	{Label: "haproxy:random2", Program: HAProxy, Directive: "random(2)", Policy: "p2c"},
	{Label: "nginx:round_robin", Program: Nginx, Directive: "", Policy: "round-robin"},
	{Label: "nginx:least_conn", Program: Nginx, Directive: "least_conn", Policy: "least-conn"},
	{Label: "nginx:random2", Program: Nginx, Directive: "random two least_conn", Policy: "p2c"},
}

// Algorithms lists the algorithms offload can run on a real balancer.
func Algorithms() []Algorithm { return append([]Algorithm(nil), algorithms...) }

// Lookup returns the algorithm of a label.
func Lookup(label string) (Algorithm, error) {
	for _, a := range algorithms {
		if a.Label == label {
			return a, nil
		}
	}
	return Algorithm{}, fmt.Errorf("balancer %q: unknown; allowed: %s", label, strings.Join(labels(), ", "))
}

func labels() []string {
	l := make([]string, len(algorithms))
	for i, a := range algorithms {
		l[i] = a.Label
	}
	return l
}

// MaxWeight is the largest weight a backend may have: HAProxy's limit
// (nginx has none), so that both programs are given the same weights.
const MaxWeight = 256

// Weights turns positive weights (a tier's capacity, servers × speed, say)
// into the integers the configurations take, keeping their ratios.
// Integers are divided by their greatest common divisor, which changes no
// algorithm's choices (smooth weighted round-robin, for one, is unchanged
// when every weight is scaled alike); if they are then at most MaxWeight,
// they are the weights. Otherwise the weights are scaled so that the
// largest is MaxWeight and rounded to the nearest integer, at least 1:
// each is then within half a unit of its ratio to the largest, 0.2% of
// the largest weight.
func Weights(w []float64) ([]int, error) {
	out := make([]int, len(w))
	integral := true
	top := 0.0
	for i, x := range w {
		if !(x > 0) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("weight %d: %v: must be finite and > 0", i, x)
		}
		integral = integral && x == math.Trunc(x) && x <= 1<<53
		top = max(top, x)
	}
	if integral {
		g := 0
		for _, x := range w {
			g = gcd(g, int(x))
		}
		if top/float64(g) <= MaxWeight {
			for i, x := range w {
				out[i] = int(x) / g
			}
			return out, nil
		}
	}
	for i, x := range w {
		out[i] = max(1, int(math.Round(x/top*MaxWeight)))
	}
	return out, nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
