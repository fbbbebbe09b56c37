package cmd

import "github.com/spf13/cobra"

// testbedCommands are the HTTP emulation commands (DESIGN §7).
func testbedCommands(io IO) []*cobra.Command {
	return nil
}
