// Command offload is an experiment runner for queue-aware task offloading in
// the computing continuum. See README.md.
package main

import (
	"os"

	"github.com/offload-sim/offload/cmd"
)

func main() { os.Exit(cmd.Main(os.Args[1:], cmd.System())) }
