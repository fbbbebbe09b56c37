package balancer

import (
	"errors"
	"fmt"
	"hash/fnv"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Defaults of Config.
const (
	// DefaultConnectTimeout bounds connecting to a backend. On loopback a
	// connection is made at once unless the backend's accept queue is full.
	DefaultConnectTimeout = 5 * time.Second
	// DefaultServerTimeout bounds a backend's answer, its queueing
	// included. It is the tier server's own cap on one task's service
	// (testbed.DefaultMaxService), so that the balancer does not cut a
	// request the tier would still answer; a caller with a shorter client
	// timeout may pass that instead.
	DefaultServerTimeout = 10 * time.Minute
	// DefaultMaxConn is the client connections a balancer accepts at once.
	DefaultMaxConn = 4096
	// maxMaxConn keeps the descriptors a configuration asks for (about
	// three per connection) within what a process can be given.
	maxMaxConn = 1 << 20
	// maxTimeout is HAProxy's largest timeout, 2³¹−1 ms (24.8 days).
	maxTimeout = (1<<31 - 1) * time.Millisecond
)

// ReadyPath is the path at which a started balancer answers with its
// Token, itself and without asking a backend: the process manager knows
// from it that the program listening is this balancer, not another one
// that holds the port.
const ReadyPath = "/offload-balancer/ready"

// Backend is one tier server behind the balancer.
type Backend struct {
	Addr   string // IPv4 loopback address and port, "127.0.0.1:8081"
	Weight int    // 1 to MaxWeight; the algorithms' weights (Weights)
}

// Config is one balancer in front of a pool of tier servers. The
// configuration is a pure function of it (Generate).
type Config struct {
	// Algorithm is a label of Algorithms, which names the program too.
	Algorithm string
	// Listen is where the balancer accepts requests: an IPv4 loopback
	// address and port.
	Listen   string
	Backends []Backend
	// Dir is the run folder, an absolute path: the configuration, logs,
	// pid file and nginx's temporary files go there.
	Dir string
	// ConnectTimeout bounds connecting to a backend; 0: DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// ServerTimeout bounds a backend's answer (queueing included), and a
	// client's silence while it waits; 0: DefaultServerTimeout.
	ServerTimeout time.Duration
	// MaxConn bounds the client connections open at once; 0: DefaultMaxConn.
	MaxConn int
}

// withDefaults returns c with its zero limits set.
func (c Config) withDefaults() Config {
	if c.ConnectTimeout == 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.ServerTimeout == 0 {
		c.ServerTimeout = DefaultServerTimeout
	}
	if c.MaxConn == 0 {
		c.MaxConn = DefaultMaxConn
	}
	return c
}

// check returns every problem of c (with its defaults set) and its
// algorithm.
func (c Config) check() (Algorithm, error) {
	var errs []error
	a, err := Lookup(c.Algorithm)
	if err != nil {
		errs = append(errs, err)
	}
	if err := loopback(c.Listen); err != nil {
		errs = append(errs, fmt.Errorf("listen address %q: %w", c.Listen, err))
	}
	if len(c.Backends) == 0 {
		errs = append(errs, errors.New("backends: none; need at least one"))
	}
	seen := map[string]int{}
	for i, b := range c.Backends {
		if err := loopback(b.Addr); err != nil {
			errs = append(errs, fmt.Errorf("backend %d: address %q: %w", i, b.Addr, err))
		} else if j, dup := seen[b.Addr]; dup {
			errs = append(errs, fmt.Errorf("backend %d: address %q: already backend %d's", i, b.Addr, j))
		} else if b.Addr == c.Listen {
			errs = append(errs, fmt.Errorf("backend %d: address %q: the balancer's own listen address", i, b.Addr))
		}
		seen[b.Addr] = i
		if b.Weight < 1 || b.Weight > MaxWeight {
			errs = append(errs, fmt.Errorf("backend %d: weight %d: must be 1 to %d", i, b.Weight, MaxWeight))
		}
	}
	if !filepath.IsAbs(c.Dir) {
		errs = append(errs, fmt.Errorf("folder %q: must be an absolute path", c.Dir))
	} else if i := strings.IndexFunc(c.Dir, unquotable); i >= 0 {
		errs = append(errs, fmt.Errorf("folder %q: holds %q, which a generated configuration cannot quote", c.Dir, c.Dir[i:i+1]))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"connect timeout", c.ConnectTimeout}, {"server timeout", c.ServerTimeout}} {
		if d.v < time.Millisecond || d.v > maxTimeout || d.v%time.Millisecond != 0 {
			errs = append(errs, fmt.Errorf("%s %v: must be a whole number of milliseconds, 1ms to %v", d.name, d.v, maxTimeout))
		}
	}
	if c.MaxConn < 1 || c.MaxConn > maxMaxConn {
		errs = append(errs, fmt.Errorf("max connections %d: must be 1 to %d", c.MaxConn, maxMaxConn))
	}
	return a, errors.Join(errs...)
}

// loopback checks that addr is an IPv4 loopback address with a port. A
// literal address, not a name: a balancer resolves names once, at start,
// and "localhost" may resolve to ::1.
func loopback(addr string) error {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return errors.New("must be an IPv4 loopback address and port, such as 127.0.0.1:8080")
	}
	if !ap.Addr().Is4() || !ap.Addr().IsLoopback() {
		return fmt.Errorf("%s is not an IPv4 loopback address (127.0.0.0/8): the balancers run on loopback only", ap.Addr())
	}
	if ap.Port() == 0 {
		return errors.New("port 0: need the port itself, so that the balancer's clients can find it")
	}
	return nil
}

// unquotable reports the characters a path may not hold: within the double
// quotes of nginx and the single quotes of HAProxy, each of these would
// end the string, start a variable or a comment, or be read as an escape.
func unquotable(r rune) bool {
	return r < ' ' || r == 0x7f || strings.ContainsRune(`"'\$#;{}`, r)
}

// Token is what the balancer of c answers at ReadyPath: a digest of its
// algorithm, listen address and folder, the same for the same Config.
func Token(c Config) string {
	h := fnv.New64a()
	for _, s := range []string{c.Algorithm, c.Listen, c.Dir} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "offload-" + strconv.FormatUint(h.Sum64(), 16)
}

// Generate returns the configuration file of c's program: its name in the
// run folder (haproxy.cfg or nginx.conf) and its text. It is a pure
// function of c; an error lists every problem of c.
func Generate(c Config) (name string, text []byte, err error) {
	c = c.withDefaults()
	a, err := c.check()
	if err != nil {
		return "", nil, err
	}
	if a.Program == HAProxy {
		return haproxyFile, haproxyConfig(c, a), nil
	}
	return nginxFile, nginxConfig(c, a), nil
}

// duration writes d, a whole number of milliseconds, in the largest unit
// that holds it exactly; HAProxy and nginx read the same units.
func duration(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}} {
		if d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + u.name
		}
	}
	return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
}
