package balancer

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"time"
)

// Check has the program check c's configuration without starting it
// (haproxy -c, nginx -t): it writes the configuration into c.Dir, as Start
// does, and returns what the program printed. The error, if the program
// finds fault, quotes that.
func Check(ctx context.Context, c Config, binary string) (string, error) {
	name, text, err := Generate(c)
	if err != nil {
		return "", err
	}
	c = c.withDefaults()
	a, _ := Lookup(c.Algorithm)
	if binary == "" {
		return "", fmt.Errorf("%s: no %s executable given", a.Label, a.Program)
	}
	if err := prepare(c.Dir, a.Program, name, text); err != nil {
		return "", fmt.Errorf("%s: %w", a.Label, err)
	}
	args := append([]string{"-c"}, haproxyArgs(c.Dir)[1:]...) // -c -f FILE
	if a.Program == Nginx {
		args = append([]string{"-t"}, nginxArgs(c.Dir)...)
	}
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = c.Dir
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	text2 := string(bytes.TrimSpace(out))
	if err != nil {
		return text2, fmt.Errorf("%s: %s %v: %w:\n%s", a.Label, binary, args, err, text2)
	}
	return text2, nil
}
