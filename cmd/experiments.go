package cmd

import "github.com/spf13/cobra"

// experimentCommands are the paper's experiments (DESIGN §4).
func experimentCommands(io IO) []*cobra.Command {
	return nil
}
