package scope

import (
	"strconv"
	"sync"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// ring keeps the newest encoded events (one JSON line each, seq and ts first) for clients to read from any
// seq still held. Readers wait on a channel that closes at each append.
type ring struct {
	mu      sync.Mutex
	lines   [][]byte
	next    int64 // seq of the next append; seqs start at 1
	changed chan struct{}
}

func newRing(capacity int) *ring {
	return &ring{lines: make([][]byte, capacity), next: 1, changed: make(chan struct{})}
}

func (r *ring) append(ts float64, ev protocol.RuntimeEvent) {
	body, err := ev.MarshalJSON()
	if err != nil || len(body) < 2 {
		return
	}
	r.mu.Lock()
	seq := r.next
	line := make([]byte, 0, len(body)+40)
	line = append(line, `{"seq":`...)
	line = strconv.AppendInt(line, seq, 10)
	line = append(line, `,"ts":`...)
	line = strconv.AppendFloat(line, ts, 'f', 3, 64)
	line = append(line, ',')
	line = append(line, body[1:]...)
	line = append(line, '\n')
	r.lines[seq%int64(len(r.lines))] = line
	r.next++
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
}

// bounds is the oldest and newest seq held (0, 0 when empty).
func (r *ring) bounds() (first, last int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.boundsLocked()
}

func (r *ring) boundsLocked() (first, last int64) {
	last = r.next - 1
	first = last - int64(len(r.lines)) + 1
	if first < 1 {
		first = 1
	}
	if last == 0 {
		first = 0
	}
	return first, last
}

// after returns the lines after seq (from the oldest held when seq is older), at most limit, the seq of the
// last line returned, and a channel that closes when more arrive.
func (r *ring) after(seq int64, limit int) (lines [][]byte, upTo int64, wait <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	first, last := r.boundsLocked()
	from := seq + 1
	if from < first {
		from = first
	}
	upTo = seq
	for s := from; s <= last && len(lines) < limit && last > 0; s++ {
		lines = append(lines, r.lines[s%int64(len(r.lines))])
		upTo = s
	}
	return lines, upTo, r.changed
}
