package cmd

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
)

// mmcWait is the M/M/c mean wait from the stationary distribution, summed
// term by term here, independently of the estimators package.
func mmcWait(c int, lambda, mu float64) (pwait, wq float64) {
	a := lambda / mu
	term, sum := 1.0, 0.0
	for k := 0; k < c; k++ {
		sum += term
		term *= a / float64(k+1)
	}
	tail := term / (1 - a/float64(c))
	pwait = tail / (sum + tail)
	return pwait, pwait / (float64(c)*mu - lambda)
}

// TestModelCSVAgreesWithTheory checks the calculator's CSV row against
// independent values: Erlang C, the M/M/c wait, and Allen–Cunneen as the
// M/M/c wait scaled by (1 + C_s²)/2.
func TestModelCSVAgreesWithTheory(t *testing.T) {
	for _, c := range []struct {
		servers  int
		rate, mu float64
		cs2      string
		cs2v     float64
	}{
		{1, 0.5, 1, "1", 1},
		{4, 3, 1, "0.8", 0.8},
		{16, 60, 5, "0", 0},
		{64, 60, 1, "2", 2},
	} {
		code, out, errOut := run(t, context.Background(), "model", "--servers", strconv.Itoa(c.servers),
			"--rate", strconv.FormatFloat(c.rate, 'g', -1, 64), "--mu", strconv.FormatFloat(c.mu, 'g', -1, 64), "--cs2", c.cs2, "--csv")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 2 || lines[0] != "servers,rate,mu,cs2,rho,erlang_c,wq_mmc_s,wq_allen_cunneen_s" {
			t.Fatalf("output %q", out)
		}
		f := strings.Split(lines[1], ",")
		got := make([]float64, len(f))
		for i, s := range f {
			got[i], _ = strconv.ParseFloat(s, 64)
		}
		pw, wq := mmcWait(c.servers, c.rate, c.mu)
		for _, chk := range []struct {
			name      string
			got, want float64
		}{
			{"rho", got[4], c.rate / (float64(c.servers) * c.mu)},
			{"erlang_c", got[5], pw},
			{"wq_mmc_s", got[6], wq},
			{"wq_allen_cunneen_s", got[7], wq * (1 + c.cs2v) / 2},
		} {
			if math.Abs(chk.got-chk.want) > 1e-9*math.Max(chk.want, 1e-300) && math.Abs(chk.got-chk.want) > 1e-300 {
				t.Errorf("c=%d λ=%v μ=%v: %s = %v, want %v", c.servers, c.rate, c.mu, chk.name, chk.got, chk.want)
			}
		}
	}
}

func TestModelUnstable(t *testing.T) {
	code, out, errOut := run(t, context.Background(), "model", "--servers", "2", "--rate", "3", "--mu", "1", "--alpha", "2.5", "--csv")
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(out), "1.5,,,") || !strings.Contains(errOut, "unstable") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, _ = run(t, context.Background(), "model", "--servers", "2", "--rate", "3", "--mu", "1", "--cs2", "1")
	if code != 0 || !strings.Contains(out, "unstable") {
		t.Errorf("table: exit %d, %q", code, out)
	}
}

func TestModelScenario(t *testing.T) {
	code, out, errOut := run(t, context.Background(), "model", "-f", "../experiments/default.yaml", "--rate", "60", "--csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "tier,servers,") || strings.Count(out, "\n") != 4 || !strings.Contains(errOut, "tier local is unstable") {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
}

func TestModelBadArguments(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--servers", "0", "--rate", "1", "--mu", "1", "--cs2", "1"}, "--servers 0"},
		{[]string{"--servers", "1", "--rate", "-1", "--mu", "1", "--cs2", "1"}, "--rate"},
		{[]string{"--servers", "1", "--rate", "1", "--mu", "0", "--cs2", "1"}, "--mu"},
		{[]string{"--servers", "1", "--rate", "1", "--mu", "1"}, "--cs2"},
		{[]string{"--servers", "1", "--rate", "1", "--mu", "1", "--cs2", "1", "--alpha", "3"}, "not both"},
		{[]string{"--servers", "1", "--rate", "1", "--mu", "1", "--alpha", "2"}, "infinite variance"},
		{[]string{"--servers", "1", "--rate", "1", "--mu", "1", "--cs2", "-1"}, "--cs2"},
		{[]string{"-f", "../experiments/default.yaml", "--rate", "1", "--servers", "3"}, "not allowed with -f"},
	} {
		code, _, errOut := run(t, context.Background(), append([]string{"model"}, c.args...)...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("model %v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
