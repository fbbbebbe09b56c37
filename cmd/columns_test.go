package cmd

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/offload-sim/offload/internal/results"
)

// TestColumnsCommand prints the column reference: the same table the
// manual's outputs page holds, with a pattern's example columns.
func TestColumnsCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Execute(context.Background(), []string{"columns"}, IO{Out: &out, Err: &errb}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var want bytes.Buffer
	if err := results.WriteColumnReference(&want); err != nil {
		t.Fatal(err)
	}
	if out.String() != want.String() || !strings.Contains(out.String(), "`share_edge`") {
		t.Errorf("offload columns printed:\n%s\nwant the reference with share_edge", out.String())
	}
}
