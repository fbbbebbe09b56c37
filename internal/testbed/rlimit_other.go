//go:build !unix

package testbed

import "errors"

// RaiseFDLimit cannot read the descriptor limit on this system: it returns
// an FDLimit with Err set, and the caller falls back to InFlightLimit(0).
func RaiseFDLimit() FDLimit {
	return FDLimit{Err: errors.New("no RLIMIT_NOFILE on this system")}
}
