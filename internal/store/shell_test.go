package store

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestShellJoin: a command's words, joined, read back by a POSIX shell as
// the same words, and a plain word left as it is.
func TestShellJoin(t *testing.T) {
	words := []string{"offload", "sweep-load", "--set", "sweep.values=[40, 80, 120]", "--policy", "hybrid,jsq", "-o", "it's mine", "", "$HOME", "a\"b", "x*"}
	line := ShellJoin(words)
	if !strings.HasPrefix(line, "offload sweep-load --set 'sweep.values=[40, 80, 120]' --policy hybrid,jsq ") {
		t.Errorf("joined: %s", line)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to read the line back")
	}
	got, err := exec.Command(sh, "-c", "set -- "+line+`; for w in "$@"; do printf '%s\0' "$w"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	if back := strings.Split(strings.TrimSuffix(string(got), "\x00"), "\x00"); !slices.Equal(back, words) {
		t.Errorf("read back %q, want %q", back, words)
	}
}
