// Package store is an output folder that offload owns file by file.
//
// A results folder is shared with the user: they point -o at it, drop notes
// beside the results, rerun into it, resume into it. The folder therefore
// records which of its files offload wrote (the manifest's "files" list), and
// offload only ever replaces or deletes those. Every other file is foreign:
// it is never overwritten or removed, with or without --force, and a command
// that would have to overwrite one is refused before it writes anything, with
// the foreign names in the message. --force only lifts the refusals it can
// resolve: results of another scenario (replaced, since they are offload's
// own), or unrelated files in a folder without a manifest (left alone, the
// results are written beside them).
//
// # Rules of Open
//
//   - A missing or empty folder is created (with its parents); nothing is
//     left behind on disk if Open then fails.
//   - A folder with offload's manifest.json of the same scenario hash is
//     accepted: a rerun or a --resume.
//   - A manifest of another hash is refused (Refusal kind OtherScenario),
//     unless Options.Force; with Resume it is refused whatever Force says
//     (ResumeMismatch), since runs of two scenarios must never be mixed.
//   - Files but no manifest: refused (NotOffload) unless Force. With Force the
//     results are written beside the files that are there.
//   - In every case, a name in Options.Writes that exists but is not
//     offload's (and, for an entry such as "traces/", any file under that
//     folder that is not offload's) refuses the folder (ForeignFiles), even
//     with Force: Force cannot help, and the message does not suggest it. A
//     manifest.json that is not an offload manifest (unparsable, another
//     tool's, not a regular file) is such a foreign file too: offload writes
//     its manifest atomically, so an unreadable one is not offload's, and
//     overwriting it could destroy another tool's record.
//
// Two kinds of leftovers are offload's, not foreign: the control files
// .offload.lock and .offload.files, and the temporary files of an atomic
// write that a killed process left (".NAME.tmp-DIGITS", os.CreateTemp's
// pattern); Open removes the latter once it has accepted the folder. A folder
// holding only such files counts as empty. Owned names are trusted only as
// regular files reached through real folders: a name replaced by a link, or
// under a folder replaced by a link, is not offload's any more, so a removal
// never follows a link out of the folder.
//
// Open does not compare --time-decisions (Manifest.TimeDecisions) on resume:
// the caller checks Old().TimeDecisions, as it knows what the flag is.
//
// # Writing
//
// WriteFile and Create write atomically (a temporary file in the target's
// folder, fsync, rename), so a reader or a --resume after a crash sees either
// the old file or the whole new one. Each name written is recorded as owned
// before its rename, in the journal .offload.files (appended and synced), and
// WriteManifest folds the record into the manifest's "files" and drops the
// journal. So a process killed between a rename and the next WriteManifest
// (a SIGKILL during a long --trace run) does not turn its own files into
// foreign ones that would block the next run.
//
// The order that keeps a folder truthful, for a run of a new scenario into
// an old one (Force): Open, RemoveStale (the old scenario's files go before
// the new manifest claims the folder, so a crash cannot leave old runs under
// the new hash, for --resume to pick up), WriteManifest, the results,
// WriteManifest again, and Refresh once the last file (a summary, a plot)
// is written, so that the manifest lists every file and no journal stays.
// Dir enforces that the first WriteManifest comes before the results: while
// the folder's manifest names another scenario, WriteFile and Create refuse
// until WriteManifest has written the new one, so a crash cannot leave new
// results under the old scenario's manifest either.
//
// # Locking
//
// Open takes an advisory lock, flock(2) LOCK_EX|LOCK_NB on .offload.lock in
// the folder, before it inspects or writes anything, and Close releases it.
// Two offload processes writing one folder would otherwise both exit 0 and
// leave a mix of two scenarios; the second is refused with "another offload
// process is writing DIR (pid N)". The kernel drops a flock when the last
// descriptor of the open file goes, which includes the death of the process,
// so a crash never leaves a stale lock: at worst a stale .offload.lock file,
// which the next Open locks and reuses. The lock is per open file
// description, so a second Open of the same folder in one process is refused
// too. Close removes the lock file while still holding the lock, and Open
// checks after locking that the file it locked is still the one at the path
// (else it retries), the usual protocol that makes removing a lock file safe.
// Linux (and other systems with flock) only.
//
// # Legacy folders
//
// A manifest without "files" was written by an offload from before this
// package. Such a folder is taken to own what that offload wrote and cleared
// on every run: the derived files runs.csv, summary.csv, mape.csv,
// series_runs.csv, mape_summary.csv, timeseries.csv, bursts.csv,
// comparison.csv, claims.md and scenario.yaml, every top-level *.png, *.svg
// and *.pdf, and the per-run traces traces/cell<N>_<policy>_<N>.csv. Without
// this, every folder written before the upgrade would refuse the next run
// over its own runs.csv; the names are offload's own, and the old offload
// already deleted and replaced them without asking.
package store
