package balancer

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// The fake balancer reads its part from the environment: the mode, and
// what Start would have put in its configuration.
const (
	helperEnv    = "OFFLOAD_BALANCER_HELPER"  // the mode
	helperListen = "OFFLOAD_BALANCER_LISTEN"  // where to listen
	helperToken  = "OFFLOAD_BALANCER_TOKEN"   // what to answer at ReadyPath
	helperPids   = "OFFLOAD_BALANCER_PIDFILE" // where to write its pid (and its child's)
)

// helper is the fake balancer. Modes:
//
//	serve     answers at ReadyPath; exits 0 on SIGTERM
//	crash     as serve, then exits 3 a moment later, saying why on stderr
//	fail      says on stderr that it cannot bind, exits 1
//	silent    never listens; SIGTERM ends it
//	stubborn  ignores SIGTERM, starts a child that ignores it too, serves
//	badexit   serves, exits 7 on SIGTERM
//	child     the stubborn helper's child: ignores SIGTERM, sleeps
func helper(mode string) int {
	if f := os.Getenv(helperPids); f != "" && mode != "child" {
		_ = os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o644)
	}
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	switch mode {
	case "child":
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
		return 0
	case "fail":
		fmt.Fprintln(os.Stderr, "[ALERT] helper: cannot bind socket (Address already in use)")
		return 1
	case "silent":
		<-term
		return 0
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), helperEnv+"=child")
		if err := c.Start(); err != nil {
			return 9
		}
		_ = os.WriteFile(os.Getenv(helperPids)+".child", []byte(strconv.Itoa(c.Process.Pid)), 0o644)
	}
	l, err := net.Listen("tcp", os.Getenv(helperListen))
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	token := os.Getenv(helperToken)
	go func() {
		_ = http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == ReadyPath {
				fmt.Fprint(w, token)
			}
		}))
	}()
	fmt.Fprintln(os.Stderr, "helper: serving", mode)
	switch mode {
	case "crash":
		time.Sleep(200 * time.Millisecond)
		fmt.Fprintln(os.Stderr, "helper: out of memory, giving up")
		return 3
	case "stubborn":
		time.Sleep(time.Hour)
	case "badexit":
		<-term
		return 7
	}
	<-term
	return 0
}
