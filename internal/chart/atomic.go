package chart

import (
	"io"

	"github.com/offload-sim/offload/internal/store"
)

// WriteFileAtomic writes dir/name atomically (store.WriteAtomic): a reader
// sees the old file or the whole new one, never a prefix.
func WriteFileAtomic(dir, name string, write func(io.Writer) error) error {
	return store.WriteAtomic(dir, name, write)
}

// Folder is where the plot functions write their file: an output folder
// that records what it wrote (internal/store's Dir), or a plain Dir.
type Folder interface {
	WriteFile(name string, write func(io.Writer) error) error
}

// Dir is a plain folder: WriteFile writes atomically with WriteFileAtomic.
type Dir string

// WriteFile implements Folder.
func (d Dir) WriteFile(name string, write func(io.Writer) error) error {
	return WriteFileAtomic(string(d), name, write)
}
