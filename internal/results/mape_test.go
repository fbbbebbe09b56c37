package results

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestMAPERoundTripAndOldLayout(t *testing.T) {
	rows := []MAPERow{{Key: Key{Experiment: "mape", Param: "arrivals.rate", Value: 60, Policy: "hybrid", Seed: 1}, Tasks: 500,
		ShadowError: ShadowError{Estimator: "queue-only", MAPE: 31.5, MAEWait: 0.004, MAPEIdle: 29.5, MAPEBusy: math.NaN(), IdleShare: 1}}}
	var b bytes.Buffer
	if err := WriteMAPE(&b, rows); err != nil {
		t.Fatal(err)
	}
	if want := "mape,arrivals.rate,60,hybrid,1,queue-only,500,31.5,0.004,29.5,,1\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("mape.csv:\n%s\nwant the row %q (a missing split value empty)", b.String(), want)
	}
	got, err := ReadMAPE(&b)
	if err != nil {
		t.Fatal(err)
	}
	if g := got[0]; g.Key != rows[0].Key || g.MAPE != 31.5 || g.MAPEIdle != 29.5 || !math.IsNaN(g.MAPEBusy) || g.IdleShare != 1 {
		t.Errorf("read back %+v, want %+v", g, rows[0])
	}
	// A mape.csv written before the split resumes, its split cells missing.
	old := "experiment,param,value,router,seed,estimator,tasks,mape,mae_wait_s\nmape,arrivals.rate,60,hybrid,1,hybrid,500,36,0.01\n"
	got, err = ReadMAPE(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	if g := got[0]; g.MAPE != 36 || g.MAEWait != 0.01 || !math.IsNaN(g.MAPEIdle) || !math.IsNaN(g.MAPEBusy) || !math.IsNaN(g.IdleShare) {
		t.Errorf("old layout read as %+v, want mape 36, mae 0.01 and NaN split", g)
	}
	if _, err := ReadMAPE(strings.NewReader("experiment,param\n")); err == nil {
		t.Error("a foreign header was accepted")
	}
}
