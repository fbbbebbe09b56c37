package pq

import "flag"

// -update rewrites golden files where a package has them. Every package
// with tests takes the flag, so that `go test ./... -update` runs in all of
// them: a test binary refuses a flag it does not define.
var _ = flag.Bool("update", false, "rewrite golden files (this package has none)")
