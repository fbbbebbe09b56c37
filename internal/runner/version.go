package runner

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Release is offload's release version, the newest in CHANGELOG.md: a
// release changes it there and here together (and tags the commit).
const Release = "v0.3.0"

// Revision is what the binary knows of the source it was built from: the
// VCS revision that `go build` stamps (with ".dirty" when the tree had
// uncommitted changes), else the module version of a `go install …@version`
// build, else "devel" (`go run`, `go test`, or a build with
// -buildvcs=false).
func Revision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ".dirty"
			}
		}
	}
	if rev != "" {
		return rev + dirty
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	return "devel"
}

// Version is the version a results folder records (manifest.json,
// claims.md, report.html): Release, then "+" and the Revision as semantic
// versioning's build metadata ("v0.3.0+devel", "v0.3.0+1a2b…"), or Release
// alone for a build of the release's own module version. Shards of
// different builds therefore do not merge.
func Version() string {
	rev := Revision()
	if rev == Release {
		return Release
	}
	return Release + "+" + rev
}

// VersionText is `offload --version`: the release on the first line, then
// the revision ("revision 1a2b…"; "module v…" for a build of a module
// version; "devel" without either), and the Go toolchain and platform.
func VersionText() string {
	var b strings.Builder
	b.WriteString("offload " + Release + "\n")
	switch rev := Revision(); {
	case rev == "devel":
		b.WriteString("devel (built without version control information)\n")
	case strings.HasPrefix(rev, "v"): // a module version; a VCS revision is hex
		b.WriteString("module " + rev + "\n")
	default:
		b.WriteString("revision " + rev + "\n")
	}
	b.WriteString("built with " + runtime.Version() + " for " + runtime.GOOS + "/" + runtime.GOARCH + "\n")
	return b.String()
}
