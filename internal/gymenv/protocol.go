package gymenv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// Frame types (docs/env.md): every frame is an 8-byte header — its type,
// three zero bytes, its payload's length as a little-endian uint32 — and
// the payload.
const (
	frameHello = 'H' // server → client, first: JSON (Hello)
	frameBatch = 'B' // server → client: the answer to a reset or a step
	frameError = 'E' // server → client: UTF-8 text, then the server exits
	frameReset = 'R' // client → server: one entry of resetEntry bytes per environment
	frameStep  = 'S' // client → server: one int32 action per environment
)

const (
	headerLen  = 8
	resetEntry = 24 // u64 seed, u64 replicate, u32 stride, u32 mode
	// maxPayload bounds a client frame: n environments' entries, far less.
	maxPayload = 1 << 24
)

// Reset modes of a reset entry.
const (
	resetNext = 0 // the environment's next replicate (its first one before any episode)
	resetSeed = 1 // the entry's seed, replicate and stride
)

// ErrProtocol marks a client's frame the protocol does not allow (bad
// input: the server answers an error frame and stops).
var ErrProtocol = errors.New("protocol")

func protocolErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrProtocol, fmt.Sprintf(format, args...))
}

// readFrame reads one client frame into buf (grown as needed): its type and
// payload. io.EOF at a frame boundary is the client's goodbye.
func readFrame(r io.Reader, buf []byte) (byte, []byte, error) {
	// The header is read into buf too (a local array would escape through
	// the reader: an allocation per frame), then parsed, then overwritten.
	if cap(buf) < headerLen {
		buf = make([]byte, headerLen, 64)
	}
	h := buf[:headerLen]
	if _, err := io.ReadFull(r, h); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return 0, buf, protocolErr("the input ended inside a frame header")
		}
		return 0, buf, err
	}
	if h[1]|h[2]|h[3] != 0 {
		return 0, buf, protocolErr("frame header % x: bytes 1–3 must be zero", h)
	}
	typ, n := h[0], binary.LittleEndian.Uint32(h[4:])
	if n > maxPayload {
		return 0, buf, protocolErr("frame %q of %d bytes: at most %d", typ, n, maxPayload)
	}
	if cap(buf) < int(n) {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return 0, buf, protocolErr("the input ended inside a %q frame of %d bytes", typ, n)
		}
		return 0, buf, err
	}
	return typ, buf, nil
}

// appendHeader appends a frame header for a payload of n bytes.
func appendHeader(b []byte, typ byte, n int) []byte {
	b = append(b, typ, 0, 0, 0)
	return binary.LittleEndian.AppendUint32(b, uint32(n))
}

// pad8 is how many zero bytes bring n up to a multiple of 8.
func pad8(n int) int { return (8 - n%8) % 8 }

// batchLen is the payload length of a batch of n environments, k fields
// and m completed tasks.
func batchLen(n, k, m int) int {
	return 16 + 8*n*k + 8*n + 16*n + n + pad8(n) + 4*n + pad8(4*n) + 16*m + m + pad8(m)
}

// appendF64 appends x little-endian.
func appendF64(b []byte, x float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
}

func appendPad(b []byte, n int) []byte {
	for range pad8(n) {
		b = append(b, 0)
	}
	return b
}
