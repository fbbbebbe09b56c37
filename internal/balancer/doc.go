// Package balancer runs a real load balancer, HAProxy or nginx, in front of
// offload's tier servers, so that a production algorithm can be measured on
// the testbed beside offload's own policy of the same name
// (docs/emulation.md, "Real balancers").
//
// # Configuration
//
// Generate turns a Config (the backends, each a loopback address with a
// weight; an algorithm label such as "haproxy:leastconn"; the listen
// address; the run folder; connect and server timeouts; a connection
// limit) into haproxy.cfg or nginx.conf. It is a pure function: the same
// Config gives the same bytes. Each balancer is one balancer: HAProxy with
// one thread, nginx with one worker, so that the counts its algorithm reads
// are those of one dispatcher, as in offload's policies. Its choice is
// final (no retry on another server, no server taken out after a failure),
// and it keeps connections to the backends alive, as the testbed's client
// does to it. Algorithms lists the labels, Weights turns capacities into the
// integer weights both programs take, and HAProxyRandomShares is the
// chance of each server in HAProxy's random draws.
//
// # Process
//
// Start writes the configuration into the run folder, starts the program
// (whose path the caller gives), and waits until it answers at ReadyPath
// with the configuration's Token: an answer from the program itself, not a
// backend and not another program holding the port. Stop sends SIGTERM,
// then SIGKILL to the process group after a grace period, and waits for the
// exit; the kernel sends the program SIGTERM if offload dies first (Linux).
// Any failure, to start or during the run, is an error that quotes the last
// lines of the program's logs. Check runs the program's own configuration
// check (haproxy -c, nginx -t).
//
// The package prints nothing, reads only the logs its programs write in the
// folder it is handed, and imports nothing of offload: the testbed's client
// drives the balancer as it would a tier, over HTTP.
package balancer
