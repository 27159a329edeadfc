package scope

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/controller-scope/controller-scope/go/protocol"
)

func TestEventsCarryKindFirstThenSeqAndTs(t *testing.T) {
	s := testScope(t)
	s.emit(protocol.QueueForgetEvent{Queue: "c", Key: "ns/a"})
	line := string(drainLines(t, s, 1)[0])
	if !strings.HasPrefix(line, `{"seq":1,"ts":`) || !strings.Contains(line, `"kind":"queue.forget","queue":"c","key":"ns/a"}`) {
		t.Fatalf("line: %s", line)
	}
}

func drainLines(t *testing.T, s *Scope, n int) [][]byte {
	drain(t, s, n)
	lines, _, _ := s.ring.after(0, n)
	return lines
}

func TestServerStreamsFromASeqAndRequiresItsToken(t *testing.T) {
	s, err := New(Config{Addr: "127.0.0.1:0", Token: "sekret", Process: "p1"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, k := range []string{"a", "b", "c"} {
		s.emit(protocol.QueueForgetEvent{Queue: "c", Key: k})
	}
	drain(t, s, 3)
	base := "http://" + s.Addr()

	res, err := http.Get(base + "/hello")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no token: %d", res.StatusCode)
	}

	get := func(path string) *http.Response {
		r, _ := http.NewRequest("GET", base+path, nil)
		r.Header.Set("Authorization", "Bearer sekret")
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res = get("/hello")
	var hello protocol.BridgeHello
	if err := json.NewDecoder(res.Body).Decode(&hello); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if hello.ProtocolVersion != protocol.ProtocolVersion || hello.Process != "p1" || hello.Seq != 3 || hello.FirstSeq != 1 {
		t.Fatalf("hello: %+v", hello)
	}

	res = get("/events?after=1")
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	var keys []string
	for len(keys) < 2 && sc.Scan() {
		var ev map[string]any
		if len(sc.Bytes()) == 0 {
			continue
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, ev["key"].(string))
	}
	if strings.Join(keys, ",") != "b,c" {
		t.Fatalf("resumed after seq 1: %v", keys)
	}
}

func TestServerRefusesANonLoopbackAddressWithoutAToken(t *testing.T) {
	_, err := New(Config{Addr: "0.0.0.0:0"})
	if err == nil || !strings.Contains(err.Error(), "without a token") {
		t.Fatalf("err: %v", err)
	}
}

func TestCommandForAnUnknownControllerSaysSo(t *testing.T) {
	s, err := New(Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := http.Post("http://"+s.Addr()+"/command", "application/json", strings.NewReader(`{"type":"step.hold","controller":"nope"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var a ack
	_ = json.NewDecoder(res.Body).Decode(&a)
	if a.OK || a.Code != "notFound" || !strings.Contains(a.Error, `"nope"`) {
		t.Fatalf("ack: %+v", a)
	}
}
