// Package gymenv is the simulator as a learning environment (docs/env.md):
// one step is one dispatch decision, the observation is the deciding
// device's dispatch.View, the action is a tier, and the reward is minus
// the time-integral of the tasks in the system since the previous step, so
// that an episode's return is exactly minus the total sojourn time of its
// tasks.
//
// The engine calls its policy; a learner wants to call the engine. An
// Env inverts the control with a coroutine (iter.Pull): the engine runs
// inside it, and its policy hands each view out and waits for the action.
// The engine is unchanged and keeps no goroutine; a coroutine switch is
// not a goroutine handoff, so a step costs the engine's own work and two
// switches.
//
// A Server holds n environments and speaks a binary protocol of one frame
// per batched reset or step over a reader and a writer (cmd gives it stdin
// and stdout). It prints nothing else and reads no file.
package gymenv
