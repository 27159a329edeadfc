package scope

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// stepper is step mode for one controller, kept in its queue wrapper: while holding, workers wait before
// the real queue hands them a key (so held keys stay queued); next lets exactly one through; a breakpoint on
// a key holds once that key is taken, a breakpoint on errors holds after a failed reconcile.
type stepper struct {
	name      string
	readyHeld func() int

	mu       sync.Mutex
	cond     *sync.Cond
	holding  bool
	releases int
	keys     map[string]bool
	once     map[string]bool // run-to targets: key breakpoints removed when they fire
	onError  bool
	pausedAt *protocol.StepStatePausedAt
	closed   bool
	// released is the key the last release let through and the worker that took it; taken counts such
	// takes, so a step.next can wait for its own.
	released *protocol.StepStateLastReleased
	taken    int
}

// releaseWait bounds how long step.next waits for a worker to take the released key before it answers.
const releaseWait = 2 * time.Second

func newStepper(name string, readyHeld func() int) *stepper {
	st := &stepper{name: name, readyHeld: readyHeld, keys: map[string]bool{}, once: map[string]bool{}}
	st.cond = sync.NewCond(&st.mu)
	return st
}

// beforeGet blocks while holding with no release; it reports whether a release let this worker through.
func (st *stepper) beforeGet() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	for st.holding && st.releases == 0 && !st.closed {
		st.cond.Wait()
	}
	if st.holding && st.releases > 0 {
		st.releases--
		return true
	}
	return false
}

// afterGet holds on a key breakpoint (unless a release already admitted this worker) until released.
func (st *stepper) afterGet(key string, admitted bool, worker int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if admitted {
		st.noteReleasedLocked(key, worker)
	}
	if admitted || st.closed {
		return
	}
	switch {
	case st.keys[key] || st.once[key]:
		delete(st.once, key)
		st.holding = true
		st.pausedAt = &protocol.StepStatePausedAt{Key: key, Reason: "key"}
	case !st.holding:
		return
	}
	// Holding began while this worker waited for a key (or the key has a breakpoint): the key stays with
	// this worker until a release.
	for st.holding && st.releases == 0 && !st.closed {
		st.cond.Wait()
	}
	if st.holding && st.releases > 0 {
		st.releases--
		st.noteReleasedLocked(key, worker)
	}
}

func (st *stepper) noteReleasedLocked(key string, worker int) {
	st.released = &protocol.StepStateLastReleased{Key: key, Worker: worker}
	st.taken++
	st.cond.Broadcast()
}

// awaitTakeLocked waits (at most releaseWait) until a worker took a key after `since` takes, so the answer
// to step.next names what it released. Called with st.mu held; the wait releases it.
func (st *stepper) awaitTakeLocked(since int) {
	expired := false
	t := time.AfterFunc(releaseWait, func() {
		st.mu.Lock()
		expired = true
		st.cond.Broadcast()
		st.mu.Unlock()
	})
	defer t.Stop()
	for st.taken == since && !expired && !st.closed {
		st.cond.Wait()
	}
}

func (st *stepper) reconcileFailed(key string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.onError {
		st.holding = true
		st.pausedAt = &protocol.StepStatePausedAt{Key: key, Reason: "error"}
	}
}

func (st *stepper) shutDown() {
	st.mu.Lock()
	st.closed = true
	st.cond.Broadcast()
	st.mu.Unlock()
}

func (st *stepper) state() protocol.StepState {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.stateLocked()
}

func (st *stepper) stateLocked() protocol.StepState {
	keys := make([]string, 0, len(st.keys))
	for k := range st.keys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	held := 0
	if st.holding {
		held = st.readyHeld()
	}
	return protocol.StepState{
		Controller:   st.name,
		Holding:      st.holding,
		Held:         held,
		Breakpoints:  protocol.StepStateBreakpoints{Keys: keys, OnError: st.onError},
		PausedAt:     st.pausedAt,
		LastReleased: st.released,
	}
}

func (st *stepper) apply(c command) (protocol.StepState, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch c.Type {
	case "step.hold":
		st.holding = true
		if st.pausedAt == nil {
			st.pausedAt = &protocol.StepStatePausedAt{Reason: "hold"}
		}
	case "step.next":
		if st.holding {
			st.releases++
			since := st.taken
			st.cond.Broadcast()
			st.awaitTakeLocked(since)
		}
	case "step.resume":
		st.holding = false
		st.releases = 0
		st.pausedAt = nil
	case "step.runTo":
		if c.Key == "" {
			return protocol.StepState{}, fmt.Errorf("step.runTo needs a key")
		}
		st.holding, st.releases, st.pausedAt = false, 0, nil
		st.once[c.Key] = true
	case "step.breakpoint":
		switch {
		case c.Key != "" && c.Remove:
			delete(st.keys, c.Key)
		case c.Key != "":
			st.keys[c.Key] = true
		case c.OnError:
			st.onError = !c.Remove
		default:
			return protocol.StepState{}, fmt.Errorf("step.breakpoint needs a key or onError")
		}
	default:
		return protocol.StepState{}, fmt.Errorf("unknown step command %q", c.Type)
	}
	st.cond.Broadcast()
	return st.stateLocked(), nil
}

// command answers the dashboard's step and requeue commands for this controller.
func (q *tapQueue) command(c command) (any, error) {
	if c.Type == "requeue" {
		if c.Key == "" {
			return nil, fmt.Errorf("requeue needs a key (namespace/name)")
		}
		q.add(&protocol.EnqueueCause{Type: "manual", Detail: "requested from the dashboard"}, zeroOpts, requestOf(c.Key))
		return map[string]string{"controller": q.name, "key": c.Key}, nil
	}
	return q.step.apply(c)
}
