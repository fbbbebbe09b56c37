package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// WriteCommandReference writes every command's help, as `offload CMD
// --help` prints it, as markdown: a heading and the help in a code block
// per command, in the order of the command tree (as gh builds its manual
// from its Cobra tree). docs/commands.md holds it, written by go generate.
func WriteCommandReference(w io.Writer) error {
	var b strings.Builder
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		if c.HasParent() {
			fmt.Fprintf(&b, "## %s\n\n%s.\n\n```\n", c.CommandPath(), strings.TrimSuffix(c.Short, "."))
			if c.Long != "" {
				b.WriteString(strings.TrimSpace(c.Long) + "\n\n")
			}
			b.WriteString(strings.TrimSpace(c.UsageString()) + "\n```\n\n")
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewRoot(IO{Out: io.Discard, Err: io.Discard}))
	_, err := io.WriteString(w, strings.TrimSuffix(b.String(), "\n"))
	return err
}
