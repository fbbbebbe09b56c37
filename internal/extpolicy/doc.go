// Package extpolicy runs a dispatch policy written as an external program,
// in any language, over the line-delimited JSON protocol of
// docs/policy-protocol.md: one process per run, a start message with the
// run's tiers, observation model, seed and identity, one decide message per
// task answered by the tier, optional done messages carrying each task's
// outcome (the reward a learning policy needs), and an end message.
//
// A Policy is a dispatch.Policy, so the simulator and the HTTP emulation
// drive a program exactly as they drive a built-in policy; it also
// implements dispatch.Feedback, whose Done calls become done messages.
// Decide cannot return an error, so a program that misbehaves (does not
// start, exits early, writes malformed JSON, names a tier that does not
// exist, exceeds its timeout) makes Decide answer tier −1, which the caller
// refuses, and the reason is kept: Err and Close return it, naming the task
// and the first bytes the program wrote.
//
// The package starts processes, which is its purpose, but takes every path
// and argument from its caller, prints nothing and keeps no global state.
// Each program runs in its own process group, so that Close, or the
// cancellation of the context given to Start, ends it and anything it
// spawned: SIGTERM, then SIGKILL after a grace. The timeout and the
// cancellation also end offload's own pending read or write, so that a
// process that left the group holding the program's pipes cannot hold the
// run; the answer to start has a limit of its own (Handshake), so that no
// timeout covers a program's start-up.
package extpolicy
