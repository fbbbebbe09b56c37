package extpolicy_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// The test binary is also the helper program the tests run: invoked as
// `<test binary> extpolicy-helper MODE [FILE]`, it speaks the protocol in
// the way MODE says (well or badly) instead of running the tests.
func TestMain(m *testing.M) {
	if len(os.Args) >= 3 && os.Args[1] == "extpolicy-helper" {
		os.Exit(helper(os.Args[2], os.Args[3:]))
	}
	os.Exit(m.Run())
}

// helperCommand is the command that runs the helper in mode.
func helperCommand(mode string, args ...string) []string {
	return append([]string{os.Args[0], "extpolicy-helper", mode}, args...)
}

// helper is the program. Modes:
//
//	fast      the benchmark's minimal program: tier 0, no JSON decoding
//	round     tier = task mod tiers, done messages wanted; logs every line to FILE
//	nofeed    as round, declining done messages
//	badjson   answers decide with a line that is not JSON
//	notier    answers decide with a tier that does not exist
//	unknown   answers decide with a misspelt key
//	chatty    prints a debug line after its answer, in the same write
//	exit      writes to stderr and exits 3 at the first decide
//	hang      never answers decide
//	noflush   answers decide without a newline
//	stubborn  ignores SIGTERM, starts a child that ignores it too (its pid
//	          in FILE), and never exits after end
//	status    exits 4 after end
//	loud      writes 2.5 MiB to stderr first, then as round
//	child     (the stubborn helper's child) ignores SIGTERM, sleeps
//	escape    starts a child in a session of its own (setsid: outside
//	          the process group) that holds its stdin, stdout and stderr
//	          (its pid in FILE), then never answers decide
//	escexit   as escape, but exits 3 at the first decide
//	escdeaf   as escape, but reads nothing after start (done messages
//	          fill the pipe)
//	holderr   starts a child in its group that holds its stderr and
//	          sleeps, then behaves and exits 0 after end
//	slowstart sleeps 500 ms before reading anything, then as round
func helper(mode string, args []string) int {
	if mode == "child" {
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
		return 0
	}
	if mode == "stubborn" {
		signal.Ignore(syscall.SIGTERM)
		c := exec.Command(os.Args[0], "extpolicy-helper", "child")
		if err := c.Start(); err != nil {
			return 9
		}
		if err := os.WriteFile(args[0], []byte(strconv.Itoa(c.Process.Pid)), 0o644); err != nil {
			return 9
		}
	}
	if mode == "escape" || mode == "escexit" || mode == "escdeaf" || mode == "holderr" {
		c := exec.Command(os.Args[0], "extpolicy-helper", "child")
		c.Stderr = os.Stderr
		if mode != "holderr" {
			c.Stdin, c.Stdout = os.Stdin, os.Stdout
			c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		}
		if err := c.Start(); err != nil {
			return 9
		}
		if len(args) > 0 {
			if err := os.WriteFile(args[0], []byte(strconv.Itoa(c.Process.Pid)), 0o644); err != nil {
				return 9
			}
		}
	}
	if mode == "slowstart" {
		time.Sleep(500 * time.Millisecond)
	}
	if mode == "loud" { // more stderr than a log keeps
		chunk := bytes.Repeat([]byte("x"), 1<<16)
		for range 40 {
			os.Stderr.Write(chunk)
		}
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriter(os.Stdout)
	var log *os.File
	if (mode == "round" || mode == "nofeed") && len(args) > 0 {
		var err error
		if log, err = os.Create(args[0]); err != nil {
			return 9
		}
		defer log.Close()
	}
	ntiers := 0
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			if mode == "stubborn" {
				time.Sleep(time.Hour)
			}
			return 0
		}
		if log != nil {
			log.Write(line)
		}
		if mode == "fast" {
			switch {
			case bytes.HasPrefix(line, []byte(`{"type":"decide"`)):
				out.WriteString(`{"tier":0}` + "\n")
			case bytes.HasPrefix(line, []byte(`{"type":"start"`)):
				out.WriteString(`{"feedback":false}` + "\n")
			case bytes.HasPrefix(line, []byte(`{"type":"end"`)):
				return 0
			}
			out.Flush()
			continue
		}
		var msg struct {
			Type  string            `json:"type"`
			Task  int               `json:"task"`
			Tiers []json.RawMessage `json:"tiers"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			fmt.Fprintln(os.Stderr, "helper: bad line:", err)
			return 8
		}
		switch msg.Type {
		case "start":
			ntiers = len(msg.Tiers)
			fmt.Fprintf(out, `{"feedback": %v, "version": 1}`+"\n", mode != "nofeed")
			if mode == "escdeaf" {
				out.Flush()
				time.Sleep(time.Hour)
			}
		case "decide":
			switch mode {
			case "badjson":
				out.WriteString("tier=1, please\n")
			case "notier":
				out.WriteString(`{"tier": 7}` + "\n")
			case "unknown":
				out.WriteString(`{"teir": 1}` + "\n")
			case "chatty":
				out.WriteString(`{"tier": 1}` + "\ndeciding task 5\n")
			case "exit":
				fmt.Fprintln(os.Stderr, "boom: the helper gives up")
				return 3
			case "hang", "escape":
				time.Sleep(time.Hour)
			case "escexit":
				return 3
			case "noflush":
				out.WriteString(`{"tier": 0}`)
				out.Flush()
				time.Sleep(time.Hour)
			default:
				fmt.Fprintf(out, `{"tier": %d, "pred_latency": 0.5}`+"\n", msg.Task%ntiers)
			}
		case "end":
			if mode == "stubborn" {
				time.Sleep(time.Hour)
			}
			if mode == "status" {
				return 4
			}
			return 0
		}
		out.Flush()
	}
}
