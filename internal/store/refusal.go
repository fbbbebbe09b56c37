package store

import (
	"errors"
	"fmt"
	"strings"
)

// ErrRefused is matched (errors.Is) by every Refusal, so that a caller can
// map them all to one exit status (bad input: nothing was written).
var ErrRefused = errors.New("output folder refused")

// ErrForeign is matched by the error of a write or removal of a file that
// offload did not write: such a file is left as it is.
var ErrForeign = errors.New("not written by offload")

// Kind says why Open refused a folder.
type Kind int

// The reasons for a Refusal.
const (
	// OtherScenario: the manifest is of another scenario hash; Force
	// replaces offload's files of it.
	OtherScenario Kind = iota + 1
	// ResumeMismatch: Resume into a folder of another scenario hash; the
	// runs of two scenarios are never mixed, Force or not.
	ResumeMismatch
	// NotOffload: files but no manifest; Force writes beside them.
	NotOffload
	// ForeignFiles: names the command writes exist as files offload did not
	// write; nothing helps but moving them or choosing another folder.
	ForeignFiles
)

// Refusal is the error of an Open that refused a folder. Its fields let a
// caller add to the message (the scenario fields that differ, say) without
// parsing it.
type Refusal struct {
	Kind Kind
	Dir  string
	// Old is the folder's manifest (OtherScenario, ResumeMismatch).
	Old *Manifest
	// Hash is Options.Hash, the new results' scenario hash.
	Hash string
	// Files are the foreign names (ForeignFiles: those in the way; NotOffload:
	// the folder's entries, folders with a trailing slash), sorted, at most
	// maxListed of them; More counts those left out.
	Files []string
	More  int
	// Cause says why a manifest.json in Files is not offload's.
	Cause error
}

// maxListed bounds the names in a message: a user who points -o at their
// home folder wants the gist, not ten thousand lines.
const maxListed = 10

// Error states the refusal. It suggests --force only when --force would
// lift it (ForceHelps).
func (r *Refusal) Error() string {
	switch r.Kind {
	case OtherScenario:
		return fmt.Sprintf("%s holds results of another scenario (%s); --force replaces them", r.Dir, r.oldName())
	case ResumeMismatch:
		return fmt.Sprintf("--resume: %s holds another scenario's results (%s, this one sha256 %.12s…)", r.Dir, r.oldName(), r.Hash)
	case NotOffload:
		return fmt.Sprintf("%s holds files that offload did not write (%s); --force writes the results beside them and leaves them as they are", r.Dir, r.list())
	case ForeignFiles:
		was, them := "were", "them"
		if len(r.Files)+r.More == 1 {
			was, them = "was", "it"
		}
		msg := fmt.Sprintf("%s: %s %s not written by offload, which never overwrites or deletes a file it did not write: move %s away or use another folder", r.Dir, r.list(), was, them)
		if r.Cause != nil {
			msg += fmt.Sprintf(" (%s: %v)", ManifestName, r.Cause)
		}
		return msg
	}
	return fmt.Sprintf("%s: refused", r.Dir)
}

// Is makes errors.Is(err, ErrRefused) hold.
func (r *Refusal) Is(target error) bool { return target == ErrRefused }

// ForceHelps says whether the same Open with Force would get past this
// refusal (barring another reason behind it).
func (r *Refusal) ForceHelps() bool { return r.Kind == OtherScenario || r.Kind == NotOffload }

func (r *Refusal) oldName() string {
	if r.Old == nil {
		return "?"
	}
	if r.Old.Experiment == "" {
		return fmt.Sprintf("sha256 %.12s…", r.Old.ScenarioHash)
	}
	return fmt.Sprintf("%s, sha256 %.12s…", r.Old.Experiment, r.Old.ScenarioHash)
}

func (r *Refusal) list() string {
	s := strings.Join(r.Files, ", ")
	if r.More > 0 {
		s += fmt.Sprintf(" and %d more", r.More)
	}
	return s
}
