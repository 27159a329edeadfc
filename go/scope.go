// Package scope streams a controller-runtime manager's internals (informers, queues, handlers, reconciles,
// writes) to the controller-scope dashboard, without a fork and without reaching into unexported state.
//
// Two changes to a project: wrap the manager's options in main.go,
//
//	mgr, err := ctrl.NewManager(cfg, scope.Options(ctrl.Options{...}))
//
// and build each controller with the drop-in builder,
//
//	return scope.NewControllerManagedBy(mgr).For(&v1.Widget{}).Owns(&appsv1.Deployment{}).Complete(r)
//
// then run `controller-scope attach 127.0.0.1:7071`.
package scope

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// Config says where the bridge listens and how much it keeps. The zero value is usable: every field has a
// default, read from the environment first.
type Config struct {
	// Addr to serve the event stream on. Default $CONTROLLER_SCOPE_ADDR, else 127.0.0.1:7071. An address
	// other than loopback requires Token. "off" disables the server (events are still counted).
	Addr string
	// Token a client must present as "Authorization: Bearer TOKEN". Default $CONTROLLER_SCOPE_TOKEN.
	Token string
	// Process names this process in the dashboard. Default $CONTROLLER_SCOPE_PROCESS, else hostname/pid
	// (a pod's hostname is its name).
	Process string
	// Buffer is how many events wait for the encoder before new ones are dropped (and counted). Default 65536.
	Buffer int
	// Keep is how many encoded events stay for clients that reconnect. Default 100000.
	Keep int
	// Now is the clock for timestamps. Default time.Now.
	Now func() time.Time
	// OTLPEndpoint is an OpenTelemetry collector's OTLP/HTTP base URL (http://localhost:4318) to send
	// traces to. Default: off, unless OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
	// OTEL_TRACES_EXPORTER=otlp say otherwise (README "Traces").
	OTLPEndpoint string
}

// Scope collects events from the taps and serves them. Emitting never blocks: a full buffer drops.
type Scope struct {
	cfg     Config
	epoch   string
	in      chan stamped
	ring    *ring
	dropped atomic.Int64
	enabled atomic.Bool

	mu          sync.Mutex
	controllers []string
	queues      map[string]commandTarget
	reconciles  sync.Map // reconcileID (types.UID) -> controller name
	informers   sync.Map // informer id -> *informerTap
	byType      sync.Map // reflector type description -> *informerTap
	server      *server
	serveErr    error
	tracer      *tracer // nil unless traces are exported
	lease       string
	managers    map[manager.Manager]bool
	// reader is the first manager's API reader (reads that never touch the cache), for GET /compare;
	// namespaces are the cache's DefaultNamespaces when the options restrict it.
	reader     client.Reader
	namespaces []string
}

type stamped struct {
	ts float64
	ev protocol.RuntimeEvent
}

// New makes a Scope and starts its encoder and (unless Addr is "off") its server.
func New(cfg Config) (*Scope, error) {
	cfg = defaulted(cfg)
	s := &Scope{
		cfg:    cfg,
		epoch:  fmt.Sprintf("%s-%d", cfg.Process, cfg.Now().UnixNano()),
		in:     make(chan stamped, cfg.Buffer),
		ring:   newRing(cfg.Keep),
		queues: map[string]commandTarget{},
	}
	s.enabled.Store(true)
	if url, ok := otlpTracesURL(os.Getenv, cfg.OTLPEndpoint); ok {
		t, err := newTracer(url, cfg.Process, cfg.Buffer, nil)
		if err != nil {
			return nil, fmt.Errorf("traces to %s: %w", url, err)
		}
		s.tracer = t
	}
	go s.encode()
	if cfg.Addr != "off" {
		srv, err := serve(s, cfg.Addr, cfg.Token)
		if err != nil {
			s.enabled.Store(false)
			if s.tracer != nil {
				_ = s.tracer.shutdown()
			}
			return nil, err
		}
		s.server = srv
	}
	return s, nil
}

func defaulted(c Config) Config {
	if c.Addr == "" {
		c.Addr = envOr("CONTROLLER_SCOPE_ADDR", "127.0.0.1:7071")
	}
	if c.Token == "" {
		c.Token = os.Getenv("CONTROLLER_SCOPE_TOKEN")
	}
	if c.Process == "" {
		host, _ := os.Hostname()
		c.Process = envOr("CONTROLLER_SCOPE_PROCESS", fmt.Sprintf("%s/%d", host, os.Getpid()))
	}
	if c.Buffer <= 0 {
		c.Buffer = 65536
	}
	if c.Keep <= 0 {
		c.Keep = 100000
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

var (
	defaultOnce  sync.Once
	defaultScope *Scope
)

// Default is the process-wide Scope that Options and NewControllerManagedBy use, configured from the
// environment. If its server cannot start (the port is taken), the error is printed once and events are
// only counted: the controller runs on unaffected.
func Default() *Scope {
	defaultOnce.Do(func() {
		s, err := New(Config{})
		if err != nil {
			fmt.Fprintf(os.Stderr, "controller-scope: not serving events: %v\n", err)
			s, _ = New(Config{Addr: "off"})
			s.serveErr = err
		}
		if addr := s.Addr(); addr != "" {
			fmt.Fprintf(os.Stderr, "controller-scope: serving events on %s (controller-scope attach %s)\n", addr, addr)
		}
		defaultScope = s
	})
	return defaultScope
}

// Addr is where the server listens (useful with port 0), or "" when it does not.
func (s *Scope) Addr() string {
	if s.server == nil {
		return ""
	}
	return s.server.addr()
}

// Close stops the server and sends the spans not exported yet. Taps keep working and their events are
// discarded.
func (s *Scope) Close() error {
	s.enabled.Store(false)
	if s.tracer != nil {
		if err := s.tracer.shutdown(); err != nil {
			fmt.Fprintf(os.Stderr, "controller-scope: sending the last spans: %v\n", err)
		}
	}
	if s.server != nil {
		return s.server.close()
	}
	return nil
}

// Dropped is how many events the buffer had no room for since the process started.
func (s *Scope) Dropped() int64 { return s.dropped.Load() }

func (s *Scope) nowMs() float64 {
	return float64(s.cfg.Now().UnixNano()) / 1e6
}

// emit hands an event to the encoder without waiting: when the buffer is full the event is counted as
// dropped, so the reconciler never waits for the dashboard.
func (s *Scope) emit(ev protocol.RuntimeEvent) {
	if !s.enabled.Load() {
		return
	}
	select {
	case s.in <- stamped{ts: s.nowMs(), ev: ev}:
	default:
		s.dropped.Add(1)
	}
}

// encode stamps a seq on each event, encodes it once and keeps it for every client. After drops it
// inserts a bridge.dropped event, so the dashboard shows the gap instead of silence.
func (s *Scope) encode() {
	var reported int64
	for st := range s.in {
		if d := s.dropped.Load(); d > reported {
			s.ring.append(st.ts, protocol.BridgeDroppedEvent{Process: s.cfg.Process, Dropped: int(d - reported), Total: int(d)})
			reported = d
		}
		s.ring.append(st.ts, st.ev)
		// The encoder sees every event once and in order, which the span planner needs.
		if s.tracer != nil {
			s.tracer.observe(st)
		}
	}
}

func (s *Scope) addController(name string, target commandTarget) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.controllers = append(s.controllers, name)
	if target != nil {
		s.queues[name] = target
	}
}

func (s *Scope) hello() protocol.BridgeHello {
	s.mu.Lock()
	controllers := append([]string{}, s.controllers...)
	steppable := make([]string, 0, len(s.queues))
	for name := range s.queues {
		steppable = append(steppable, name)
	}
	s.mu.Unlock()
	first, last := s.ring.bounds()
	return protocol.BridgeHello{
		ProtocolVersion:   protocol.ProtocolVersion,
		Epoch:             s.epoch,
		Process:           s.cfg.Process,
		ControllerRuntime: controllerRuntimeVersion(),
		Controllers:       controllers,
		Seq:               int(last),
		FirstSeq:          int(first),
		Dropped:           int(s.dropped.Load()),
		Steppable:         steppable,
	}
}
