package schema

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
)

// Digest is the hex SHA-256 of the float64s' bits, column after column,
// each preceded by its length: what a document's hash adds for data
// attached from files, so that a folder of runs is not resumed or merged
// against a file whose contents changed.
func Digest(cols ...[]float64) string {
	h := sha256.New()
	var b [8]byte
	for _, c := range cols {
		binary.LittleEndian.PutUint64(b[:], uint64(len(c)))
		h.Write(b[:])
		for _, x := range c {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
