package scope

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// The wire, for `controller-scope attach`:
//
//	GET  /hello                 the BridgeHello (protocol version, epoch, process, controllers, seq bounds)
//	GET  /events?after=SEQ      NDJSON: every held event after SEQ, then new ones as they come; an empty
//	                            line every few seconds says the process is alive
//	POST /command               a step or requeue command (JSON, as the dashboard's); answers an Ack
//	GET  /object?informer=ID&key=NAMESPACE/NAME
//	                            the informer's cached copy of one object (404 when it holds none); a
//	                            Secret's data is never sent
//
// With a token, each request needs "Authorization: Bearer TOKEN".

const heartbeat = 3 * time.Second

type server struct {
	ln  net.Listener
	srv *http.Server
}

func serve(s *Scope, addr, token string) (*server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("CONTROLLER_SCOPE_ADDR %q is not host:port: %w", addr, err)
	}
	if token == "" && !isLoopback(host) {
		return nil, fmt.Errorf("refusing to serve controller internals on %s without a token: set CONTROLLER_SCOPE_TOKEN (or Config.Token), or listen on 127.0.0.1 and use kubectl port-forward", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /hello", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.hello())
	})
	mux.HandleFunc("GET /events", s.streamEvents)
	mux.HandleFunc("POST /command", s.serveCommand)
	mux.HandleFunc("GET /object", s.serveObject)
	mux.HandleFunc("GET /compare", s.serveCompare)
	srv := &http.Server{Handler: authorized(token, mux), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &server{ln: ln, srv: srv}, nil
}

func (sv *server) addr() string { return sv.ln.Addr().String() }

func (sv *server) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := sv.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return sv.srv.Close()
	}
	return err
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func authorized(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			http.Error(w, "controller-scope: a valid token is required (Authorization: Bearer TOKEN)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Scope) streamEvents(w http.ResponseWriter, r *http.Request) {
	after, err := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
	if r.URL.Query().Get("after") == "" {
		after, err = 0, nil
	}
	if err != nil || after < 0 {
		http.Error(w, "after must be a seq (a non-negative integer)", http.StatusBadRequest)
		return
	}
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if flusher != nil {
		flusher.Flush()
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		lines, upTo, wait := s.ring.after(after, 2048)
		for _, l := range lines {
			if _, err := w.Write(l); err != nil {
				return
			}
		}
		after = upTo
		if len(lines) > 0 {
			if flusher != nil {
				flusher.Flush()
			}
			continue
		}
		select {
		case <-r.Context().Done():
			return
		case <-wait:
		case <-tick.C:
			if _, err := io.WriteString(w, "\n"); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
	}
}

// commandTarget is a controller's queue wrapper: it holds, releases and requeues keys.
type commandTarget interface {
	command(c command) (any, error)
}

// command is any of the dashboard's step and requeue commands (protocol StepCommand, BreakpointCommand,
// RequeueCommand): they share these fields.
type command struct {
	Type       string `json:"type"`
	Controller string `json:"controller"`
	Key        string `json:"key,omitempty"`
	OnError    bool   `json:"onError,omitempty"`
	Remove     bool   `json:"remove,omitempty"`
}

type ack struct {
	OK     bool   `json:"ok"`
	Result any    `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
	Code   string `json:"code,omitempty"`
}

func (s *Scope) serveCommand(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	var c command
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&c); err != nil {
		_ = json.NewEncoder(w).Encode(ack{Error: "a command is a JSON object: " + err.Error(), Code: "invalid"})
		return
	}
	s.mu.Lock()
	target := s.queues[c.Controller]
	s.mu.Unlock()
	if target == nil {
		_ = json.NewEncoder(w).Encode(ack{Error: fmt.Sprintf("no controller %q built with scope.NewControllerManagedBy in this process", c.Controller), Code: "notFound"})
		return
	}
	res, err := target.command(c)
	if err != nil {
		_ = json.NewEncoder(w).Encode(ack{Error: err.Error(), Code: "invalid"})
		return
	}
	_ = json.NewEncoder(w).Encode(ack{OK: true, Result: res})
}
