package balancer

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// golden is the configuration the goldens pin: three backends weighted
// 5, 1, 1 and the default limits.
func golden(label string) Config {
	return Config{Algorithm: label, Listen: "127.0.0.1:8080", Dir: "/var/tmp/offload/balancer",
		Backends: []Backend{{"127.0.0.1:8081", 5}, {"127.0.0.1:8082", 1}, {"127.0.0.1:8083", 1}}}
}

// Each algorithm's configuration, byte for byte (go test -update rewrites
// testdata/golden; read the diff).
func TestGenerateGolden(t *testing.T) {
	for _, a := range Algorithms() {
		name, text, err := Generate(golden(a.Label))
		if err != nil {
			t.Fatal(err)
		}
		if want := map[Program]string{HAProxy: "haproxy.cfg", Nginx: "nginx.conf"}[a.Program]; name != want {
			t.Errorf("%s: file %q, want %q", a.Label, name, want)
		}
		path := filepath.Join("testdata", "golden", strings.ReplaceAll(a.Label, ":", "_")+"."+filepath.Ext(name)[1:])
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, text, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -update writes it)", err)
		}
		if !bytes.Equal(text, want) {
			t.Errorf("%s: the configuration differs from %s (go test -update rewrites it; read the diff):\n%s", a.Label, path, text)
		}
	}
}

// The parts of each configuration the rest of offload relies on, stated
// apart from the goldens so that an -update cannot lose them silently.
func TestGenerateKeeps(t *testing.T) {
	for _, a := range Algorithms() {
		c := golden(a.Label)
		_, text, err := Generate(c)
		if err != nil {
			t.Fatal(err)
		}
		s := string(text)
		want := []string{Token(c), ReadyPath, "127.0.0.1:8080", "127.0.0.1:8081", "127.0.0.1:8082", "127.0.0.1:8083"}
		if a.Program == HAProxy {
			want = append(want, "nbthread 1", "noreuseport", "retries 0", "balance "+a.Directive,
				"server t0 127.0.0.1:8081 weight 5", "server t2 127.0.0.1:8083 weight 1", "timeout server 10m", "timeout connect 5s")
		} else {
			want = append(want, "worker_processes 1;", "daemon off;", "proxy_next_upstream off;", "proxy_http_version 1.1;",
				`proxy_set_header Connection "";`, "keepalive 4096;", "server 127.0.0.1:8081 weight=5 max_fails=0;",
				`pid "/var/tmp/offload/balancer/nginx.pid";`, `proxy_temp_path "/var/tmp/offload/balancer/nginx-temp/proxy";`,
				"proxy_read_timeout 10m;")
			if a.Directive != "" {
				// The method comes before keepalive, as the upstream module requires.
				want = append(want, a.Directive+";")
				if strings.Index(s, a.Directive+";") > strings.Index(s, "keepalive 4096;") {
					t.Errorf("%s: %q after keepalive", a.Label, a.Directive)
				}
			}
		}
		for _, w := range want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: the configuration lacks %q:\n%s", a.Label, w, s)
			}
		}
	}
}

func TestGenerateRefuses(t *testing.T) {
	ok := golden("nginx:least_conn")
	for _, tc := range []struct {
		name   string
		change func(*Config)
		want   []string
	}{
		{"label", func(c *Config) { c.Algorithm = "nginx:leastconn" },
			[]string{`balancer "nginx:leastconn": unknown; allowed: haproxy:roundrobin, haproxy:leastconn, haproxy:random2, nginx:round_robin, nginx:least_conn, nginx:random2`}},
		{"listen not loopback", func(c *Config) { c.Listen = "10.0.0.1:80" }, []string{`listen address "10.0.0.1:80"`, "not an IPv4 loopback address"}},
		{"listen a name", func(c *Config) { c.Listen = "localhost:80" }, []string{`listen address "localhost:80": must be an IPv4 loopback address and port`}},
		{"listen IPv6", func(c *Config) { c.Listen = "[::1]:80" }, []string{"::1 is not an IPv4 loopback address"}},
		{"listen port 0", func(c *Config) { c.Listen = "127.0.0.1:0" }, []string{"port 0"}},
		{"no backends", func(c *Config) { c.Backends = nil }, []string{"backends: none"}},
		{"backend elsewhere", func(c *Config) { c.Backends[1].Addr = "192.168.1.2:80" }, []string{`backend 1: address "192.168.1.2:80"`}},
		{"backend twice", func(c *Config) { c.Backends[2].Addr = c.Backends[0].Addr }, []string{`backend 2: address "127.0.0.1:8081": already backend 0's`}},
		{"backend is listen", func(c *Config) { c.Backends[0].Addr = c.Listen }, []string{"the balancer's own listen address"}},
		{"weight 0", func(c *Config) { c.Backends[1].Weight = 0 }, []string{"backend 1: weight 0: must be 1 to 256"}},
		{"weight too large", func(c *Config) { c.Backends[0].Weight = 257 }, []string{"backend 0: weight 257: must be 1 to 256"}},
		{"relative folder", func(c *Config) { c.Dir = "runs/b" }, []string{`folder "runs/b": must be an absolute path`}},
		{"quote in folder", func(c *Config) { c.Dir = `/tmp/it's` }, []string{`holds "'"`}},
		{"newline in folder", func(c *Config) { c.Dir = "/tmp/a\nb" }, []string{`holds "\n"`}},
		{"timeout below 1ms", func(c *Config) { c.ConnectTimeout = time.Microsecond }, []string{"connect timeout 1µs: must be a whole number of milliseconds"}},
		{"negative timeout", func(c *Config) { c.ServerTimeout = -time.Second }, []string{"server timeout -1s"}},
		{"timeout too long", func(c *Config) { c.ServerTimeout = 30 * 24 * time.Hour }, []string{"server timeout 720h0m0s"}},
		{"fractional ms", func(c *Config) { c.ServerTimeout = 1500 * time.Microsecond }, []string{"server timeout 1.5ms"}},
		{"maxconn", func(c *Config) { c.MaxConn = -1 }, []string{"max connections -1: must be 1 to 1048576"}},
		{"every problem at once", func(c *Config) { c.Listen, c.Backends[0].Weight, c.MaxConn = "", 0, -1 },
			[]string{`listen address ""`, "backend 0: weight 0", "max connections -1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			c.Backends = slices.Clone(ok.Backends)
			tc.change(&c)
			_, _, err := Generate(c)
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestToken(t *testing.T) {
	c := golden("haproxy:leastconn")
	if Token(c) != Token(golden("haproxy:leastconn")) {
		t.Error("the token of one configuration changes")
	}
	seen := map[string]string{Token(c): "base"}
	for name, change := range map[string]func(*Config){
		"label":  func(c *Config) { c.Algorithm = "haproxy:roundrobin" },
		"listen": func(c *Config) { c.Listen = "127.0.0.1:8090" },
		"folder": func(c *Config) { c.Dir = "/var/tmp/offload/other" },
	} {
		d := golden("haproxy:leastconn")
		change(&d)
		if other, dup := seen[Token(d)]; dup {
			t.Errorf("a different %s gives the token of %s", name, other)
		}
		seen[Token(d)] = name
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Millisecond: "1ms", 1500 * time.Millisecond: "1500ms", 5 * time.Second: "5s", 90 * time.Second: "90s",
		10 * time.Minute: "10m", 2 * time.Hour: "2h", 61 * time.Minute: "61m",
	} {
		if got := duration(d); got != want {
			t.Errorf("duration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestWeights(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want []int
	}{
		{[]float64{1, 1, 1}, []int{1, 1, 1}},
		{[]float64{5, 1, 1}, []int{5, 1, 1}},
		{[]float64{10, 2, 2}, []int{5, 1, 1}},                  // divided by their gcd
		{[]float64{100, 25, 200}, []int{4, 1, 8}},              // servers × speed of three tiers
		{[]float64{256, 3}, []int{256, 3}},                     // integers up to MaxWeight kept
		{[]float64{1000, 10}, []int{100, 1}},                   // integers past it: gcd first
		{[]float64{1, 1.5}, []int{171, 256}},                   // 1/1.5 × 256 = 170.67
		{[]float64{2.5, 0.25, 0.001}, []int{256, 26, 1}},       // 0.0256 → at least 1
		{[]float64{1001, 1}, []int{256, 1}},                    // 1001 > MaxWeight, gcd 1: scaled
		{[]float64{0.5}, []int{256}},                           // one tier
		{[]float64{3 * 0.1, 0.1 + 0.2}, []int{256, 256}},       // equal to within rounding
		{[]float64{12.5, 25, 50}, []int{64, 128, 256}},         // exact ratios stay exact
		{[]float64{7, 7, 7, 7}, []int{1, 1, 1, 1}},             // equal weights are weight 1
		{[]float64{4, 6}, []int{2, 3}},                         // the smallest integers of the ratio
		{[]float64{255.5, 1}, []int{256, 1}},                   // 1/255.5 × 256 = 1.002
		{[]float64{1e9, 1}, []int{256, 1}},                     // a ratio past MaxWeight: at least 1
		{[]float64{200, 100, 3}, []int{200, 100, 3}},           // gcd 1
		{[]float64{0.75, 0.25}, []int{256, 85}},                // 85.33
		{[]float64{1.0 / 3, 2.0 / 3}, []int{128, 256}},         // 128 exactly
		{[]float64{64, 128, 256}, []int{1, 2, 4}},              // gcd 64
		{[]float64{3, 9, 27, 81, 243}, []int{1, 3, 9, 27, 81}}, // gcd 3
	} {
		got, err := Weights(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Weights(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range [][]float64{{1, 0}, {-1}, {1, nan()}, {inf()}} {
		if _, err := Weights(bad); err == nil {
			t.Errorf("Weights(%v) accepted", bad)
		}
	}
}

// The labels, and offload's policies they stand beside, as the emulation
// names them.
func TestAlgorithms(t *testing.T) {
	got := map[string]string{}
	for _, a := range Algorithms() {
		got[a.Label] = a.Policy
		if !strings.HasPrefix(a.Label, string(a.Program)+":") {
			t.Errorf("%s: program %s", a.Label, a.Program)
		}
	}
	want := map[string]string{
		"haproxy:roundrobin": "round-robin", "haproxy:leastconn": "least-conn", "haproxy:random2": "p2c",
		"nginx:round_robin": "round-robin", "nginx:least_conn": "least-conn", "nginx:random2": "p2c",
	}
	if len(got) != len(want) {
		t.Errorf("labels %v, want %v", got, want)
	}
	for l, p := range want {
		if got[l] != p {
			t.Errorf("%s: policy %q, want %q", l, got[l], p)
		}
	}
	Algorithms()[0].Label = "changed"
	if Algorithms()[0].Label == "changed" {
		t.Error("Algorithms hands out its table")
	}
}
