// Package engine is the discrete-event simulator of docs/design.md §1: Poisson
// arrivals with a piecewise-constant rate, one dispatch decision per task,
// lognormal communication delays, and multi-server tiers: FCFS, and
// processor sharing or SRPT (event-driven), with finite buffers.
//
// The engine is a library: it prints nothing, touches no file, reads no clock
// and keeps no global state. A run takes a Config, a dispatch.Policy and the
// workload's random streams, and returns a Result (internal/tally's, which
// also records it task by task; the engine names it by an alias).
//
// # How a task flows
//
// A task arrives at the device, the policy sees a dispatch.View and picks a
// tier, the task spends its pre-drawn delay for that tier in transit, then
// joins the tier's FCFS queue. Because the discipline is FCFS and a task's
// size is drawn at arrival, its start and completion times are known the
// moment it reaches the tier: the tier keeps each server's next free time
// (the Kiefer–Wolfowitz workload vector) and the task takes the earliest one.
// Departures only maintain the queue and busy counts a policy observes: they
// are not events. A tier of few servers reads its count from the workload
// vector and the start times of its waiting tasks when it is read; a larger
// one, and every tier under the delayed model (whose history needs each
// change at its instant), keeps its tasks' finish times and takes off the
// ones due then (present, finishes, drain).
//
// # Events and time
//
// Events are ordered by (time, sequence number), so ties resolve in the order
// they were scheduled and simulated time never goes backwards. At equal times
// an FCFS tier's departures come first (they are taken off whenever the tier
// is read), then events in the order they were scheduled (an event-driven
// tier's departure, evDepart, among them, not ahead of them), then the
// arrival being decided.
//
// # What each structure holds
//
// A run is one sim (run.go), built by newSim and driven by loop. Its state:
//
//   - tiers: the physical tiers, in the scenario's order, a local tier's
//     per-device copies next to each other (owner is the device, −1 for a
//     shared tier; scen the scenario tier it copies). Each keeps free, its
//     servers' next free times, and the tasks present in one of two forms
//     (kw below). The slice is complete before any device is set up and is
//     never appended to again: devices keep pointers into it (seen).
//   - slots: the tasks dispatched whose reach has not been processed
//     (transit), reused through freeSlots; shPred holds their shadows'
//     predictions, slot-major. A slot is freed the moment its task reaches
//     its tier: FCFS fixes its start and finish then, so it is recorded
//     there and then, not at its departure.
//   - events (a pq.Events, kinds in events.go): a min-heap by (time,
//     sequence number) of reaches (evReach), board postings (evRefresh),
//     for a Feedback policy only completions (evDone, feedback.go), and in
//     a dynamic run retries (evRetry, dynamic.go), timeouts that fire
//     while their task is in transit (evExpire, dynamic.go) and an
//     event-driven tier's next happening (evDepart, discipline.go). An FCFS tier's
//     departures are never events. Nothing is pushed earlier than the last
//     time popped: the heap does not check it, and everything after a
//     pop assumes it (the clock, the measured window, the held reach).
//   - devs: one per dispatcher: its policy, the capabilities read once at
//     newSim (observers, count, sample, view.Oracle; whether it wants
//     feedback is its Device's Feedback, which Run fills from the
//     capabilities), its source
//     of tasks, its view and phys, the map from its view's tiers to
//     physical ones. A device's view is reused at every decision; its
//     InTransit counts are kept current as its tasks leave and reach
//     (they are the one part of States a blind policy's view keeps).
//   - next (a pq.Keys): with more than heapDevices devices, every device
//     by its next arrival, ties by the lower index; below, a pass finds
//     the first.
//   - due (a pq.Keys), clog and the devices' cursor, pend and mark
//     (track.go): with trackTiers tiers or more, every physical tier by its
//     next departure (+Inf: none present; a key may be early, never
//     late), the log of tiers whose count changed, and each device's
//     place in it.
//   - busy (a pq.Times) and each tier's idle (track.go): in a run of idle
//     views (dispatch.IdleReader policies), the filled tiers by a time
//     before which none can have freed a server, and whether each tier
//     has one; clog then logs the tiers that went idle or filled.
//   - hist and sendLog (Delayed only; observe.History): each tier's count,
//     and each device's own sends, as step functions of time over the last
//     horizon seconds, changes added in time order.
//
// # When a tier counts
//
// A tier's count of tasks present is brought up to date only when read
// (present, count, drain): at a decision that reads views, at a posting,
// when a task reaches a heap tier, and when the measured window opens or
// closes. Every read at t sees every departure at or before t. A tier of at
// most kwServers servers, and every tier of a run whose views read none
// (unread in newSim), counts from its workload vector and the start times
// of its waiting tasks (kw: n holds until until, its next departure); any
// other tier, and every tier under Delayed, keeps its tasks' finish times
// (fin) and takes off those due when read. A device counts its view
// (device.count) only under fresh observation and only if its policy or
// shadows read the counts: a Blind policy without shadows leaves Busy and
// Queued as they were, and a Sampler's view counts the few tiers it reads
// through View.Reader. A tracked run (track.go) instead recounts, at each
// decision, just the tiers whose departure is due (settle), and each view
// applies the logged changes (follow). An idle view counts no tier: a
// tier fills at a reach that leaves every server busy, and frees a server
// at its earliest free time (freed, followIdle).
//
// # The held reach
//
// A task dispatched with a positive delay and no clairvoyant policy in the
// run is not pushed at once: arrive leaves its slot in held, and loop,
// once it knows the next arrival, lets it reach its tier right away when
// the heap would have run that reach next anyway (arrivals go on, the
// reach is no later than the next arrival and strictly before the earliest
// pending event), else pushes it then (place). The guarantee: the run takes
// the same steps in the same order, with the same sequence numbers'
// relative order, as if every reach went through the heap; no view is read
// between the dispatch and its placement, so a task reaching at once is
// never seen in transit. Anything added between arrive and place that
// reads a view or pushes an event breaks this and must place the held task
// first; the one exception, a timeout in transit pushed at the send
// (expiresInTransit), comes strictly before the held reach, which place
// then pushes, in the order it would have had. A clairvoyant run pushes every reach at once (sendOracle), since
// the oracle reads the tasks in transit.
//
// # The measured window
//
// Its sums of tasks present (Little's law) are not integrated event by
// event: a tier's area is the sojourns of the tasks that reach it in the
// window plus R(t₀) less R(T), where R is the time its tasks present still
// spend there (residual). So departures need no visit, and the window's two
// ends are the only reads of every tier a blind run makes.
//
// # Capacities, event-driven tiers and the outcome account
//
// Timeouts, retries, a capacity that changes, a buffer, a discipline other
// than FCFS, task classes or patience make the run keep the outcome
// account (Config.Dynamic, dyn), and reach takes the slower path
// (reachSlow, discipline.go): a full buffer drops the task there, before
// it touches the tier. A tier whose capacity changes keeps its
// capacity.Timeline (tl), drawn from the run's episode seed alone so that
// every policy sees the same episodes, and settled at each reach (reaches
// come in time order); an FCFS task's finish is its service drained
// through the timeline's pieces, or the instant the tier goes down
// (reachDynamic). Every failure is told and retried at the instant its
// dispatcher learns of it, never earlier than the event that finds it (an
// abandonment, which no dispatcher sees, is told as a timeout at its
// deadline, and never without a timeout; it is not retried): an
// attempt whose delay outlives the timeout (or equals it) fails at its deadline, in
// transit (expire), its task moving to a new slot for the retry while the
// old one, an orphan, travels on to its tier, where with cancel nothing
// joins and without only its work does (orphanEnds frees the slot, the
// end already counted). A PS, SRPT or priority tier's finishes depend on the
// tasks that reach it later, so it is the one place where departures are
// events (evDepart): the tier's discipline.Tier (ev) keeps its tasks,
// their slots stay taken until they leave, and its next happening (a
// departure, the tier going down, a task's deadline or patience; its
// speed changes drain its tasks through the timeline) is pushed again at
// each change (schedule) with the tier's generation, an older one stale.
// Its heap of finishes holds a +Inf per task present, so that present,
// Delayed's history and the tracked views read its count as any heap
// tier's; each leave takes one off. FCFS tiers keep everything above.
//
// Task classes (classes.go) ride on the transit slot (class), drawn by
// the workload source; they make the run keep the outcome account, and
// each class's own (Result.Class). In a run with patience every FCFS tier
// keeps its finishes (kw false): a task that would wait past its patience
// (its start is known at its reach) holds its place until then and takes
// no server (abandons), out of the order of starts that kw reads.
//
// # Allocation-free
//
// Per task, the loop, arrive, reach, the events' heap, the tiers' heaps and
// rings, the tracked views and the oracle allocate nothing in the steady
// state: slices grow to their high-water mark and are reused (slots, heaps,
// clog, Changed, scratchF), records are written into reused values (rec,
// a Completion in feedback), and capabilities are looked up once, in
// newSim, not by type assertion per task. BenchmarkEngine reports 0
// allocs/op and its cost against BenchmarkFloor (x-floor; docs/performance.md
// gives the measured ratio, its command and date, and where the time beyond
// the floor goes); a change on the per-task path is measured there. Fields of a slot
// are set one by one in arrive (see transit): a new field is set there too.
package engine
