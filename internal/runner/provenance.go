package runner

import (
	"path/filepath"
	"strings"
)

// A merged folder is shared beyond the machine that merged it (a paper's
// supplement, an advisor's inbox): its manifest records what made the
// runs, the shards' own command, and how they were merged, with no path
// of the merging machine in either. Paths are written relative to the
// merged folder, so that they still name the shards beside it wherever
// the tree is copied.

// extraMergeCommand is the merged manifest's record of the merge itself.
const extraMergeCommand = "merge_command"

// shardOnly are the flags of a shard's command that concern the shard
// alone: which part of the plan it ran, where it wrote, that it resumed.
// The merged folder is the whole plan's, so its command leaves them out.
var shardOnly = map[string]bool{"--shard": true, "--shards": true, "-o": true, "--out": true, "--resume": false}

// mergedCommand is the command a merged folder records as what made it:
// the shard's own (args[0] is the program), without shardOnly's flags,
// and with every absolute path made relative to the merged folder dir.
func mergedCommand(args []string, dir string) []string {
	if len(args) == 0 {
		return nil
	}
	out := []string{filepath.Base(args[0])}
	for i := 1; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		if takesValue, ok := shardOnly[name]; ok {
			if takesValue && !hasValue {
				i++
			}
			continue
		}
		out = append(out, relArg(a, dir))
	}
	return out
}

// mergeCommand is the merge's own command line with every path argument
// (the shard folders, -o's folder) relative to the merged folder dir, and
// the program by its name.
func mergeCommand(args []string, dir string) []string {
	if len(args) == 0 {
		return nil
	}
	out := []string{filepath.Base(args[0])}
	sub := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "merge" && !sub: // the subcommand's name
			sub = true
			out = append(out, a)
		case a == "-o" || a == "--out":
			out = append(out, a)
			if i+1 < len(args) {
				i++
				out = append(out, relPath(args[i], dir))
			}
		case strings.HasPrefix(a, "-o=") || strings.HasPrefix(a, "--out="):
			name, v, _ := strings.Cut(a, "=")
			out = append(out, name+"="+relPath(v, dir))
		case mergeValued[a]: // a flag and its value, not a path
			out = append(out, a)
			if i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		case strings.HasPrefix(a, "-"):
			out = append(out, a)
		default: // a shard folder
			out = append(out, relPath(a, dir))
		}
	}
	return out
}

// mergeValued are merge's flags, other than -o, that take a value.
var mergeValued = map[string]bool{"--format": true}

// relArg makes an absolute path argument, or the absolute value of a
// --flag=value, relative to dir; any other argument is kept.
func relArg(a, dir string) string {
	if filepath.IsAbs(a) {
		return relPath(a, dir)
	}
	if name, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(name, "-") && filepath.IsAbs(v) {
		return name + "=" + relPath(v, dir)
	}
	return a
}

// relPath is path (absolute, or relative to the working directory)
// relative to dir, with slashes; path itself when there is no relative
// form (another volume).
func relPath(path, dir string) string {
	abs, err1 := filepath.Abs(path)
	base, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return path
	}
	r, err := filepath.Rel(base, abs)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}
