package emulate

import (
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/balancer"
	"github.com/offload-sim/offload/internal/experiment"
	"github.com/offload-sim/offload/internal/results"
	"github.com/offload-sim/offload/internal/scenario"
)

const pool = `name: pool
seed: 1
seeds: 2
duration: 1
arrivals: {rate: 10}
tiers:
  - {name: a, kind: edge, servers: 1, speed: 10}
  - {name: b, kind: edge, servers: 1, speed: 10}
policies: [jsq, least-conn, {name: p2c, as: p2c-w, weights: [2, 1]}, round-robin]
`

// Each entry with a counterpart runs on each program given, in the
// programs' order, replicate by replicate; a renamed entry keeps its label;
// the simulator's runs of the entry stand beside them under their labels.
func TestRealJobsAndCounterparts(t *testing.T) {
	sc, err := scenario.Parse("pool.yaml", []byte(pool), nil, experiment.Catalog())
	if err != nil {
		t.Fatal(err)
	}
	plan, err := experiment.NewPlan("pool", sc)
	if err != nil {
		t.Fatal(err)
	}
	rjs := realJobs(plan, []Balancer{{Program: balancer.Nginx}, {Program: balancer.HAProxy}})
	var got []string
	for _, rj := range rjs {
		got = append(got, rj.label+"/"+rj.job.Policy+"/"+string(rune('0'+rj.job.Seed)))
	}
	want := "nginx:round_robin/round-robin/0 nginx:round_robin/round-robin/1 nginx:least_conn/least-conn/0 nginx:least_conn/least-conn/1 " +
		"nginx:random2:p2c-w/p2c-w/0 nginx:random2:p2c-w/p2c-w/1 haproxy:roundrobin/round-robin/0 haproxy:roundrobin/round-robin/1 " +
		"haproxy:leastconn/least-conn/0 haproxy:leastconn/least-conn/1 haproxy:random2:p2c-w/p2c-w/0 haproxy:random2:p2c-w/p2c-w/1"
	if strings.Join(got, " ") != want {
		t.Errorf("jobs\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	sim := []results.Run{{Policy: "least-conn", Seed: 1}, {Policy: "jsq", Seed: 0}}
	cp := counterparts(rjs, sim)
	if len(cp) != 2 || cp[0].Policy != "nginx:least_conn" || cp[1].Policy != "haproxy:leastconn" || cp[0].Seed != 1 {
		t.Errorf("counterparts %+v", cp)
	}
	if sim[0].Policy != "least-conn" {
		t.Error("the simulator's own runs were relabelled")
	}
	if err := checkBalancers(&Options{Balancers: []Balancer{{Program: balancer.HAProxy}}, External: map[string]string{"a": "http://x"}}, plan); err == nil {
		t.Error("--balancer with --tier: no error")
	}
}
