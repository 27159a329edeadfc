package main

// ingest: client-go's SharedIndexInformer syncs the Pods bench/bytes-server.ts serves (JSON, or protobuf as
// typed Go clients of built-in kinds usually ask for; client-go's own choice of WatchList or LIST+WATCH) and
// handles every watch event after them; one measurement per process, printed as the JSON line
// bench/ingest-peer.ts prints for the Node peers.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"k8s.io/apimachinery/pkg/fields"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

type ingestResult struct {
	Peer                   string  `json:"peer"`
	Events                 int     `json:"events"`
	Ms                     float64 `json:"ms"`
	CPUMs                  float64 `json:"cpuMs"`
	PeakRssMB              float64 `json:"peakRssMB"`
	RetainedBytesPerObject float64 `json:"retainedBytesPerObject"`
}

func benchIngest(url string, objects, events int, protobuf bool) {
	content := rest.ContentConfig{ContentType: "application/json", AcceptContentTypes: "application/json"}
	peer := "client-go"
	if protobuf {
		// What kubectl and most controllers configure for built-in kinds: protobuf, JSON as the fallback.
		content = rest.ContentConfig{
			ContentType:        "application/vnd.kubernetes.protobuf",
			AcceptContentTypes: "application/vnd.kubernetes.protobuf,application/json",
		}
		peer = "client-go-protobuf"
	}
	cfg := &rest.Config{Host: url, QPS: -1, ContentConfig: content}
	cs, err := corev1client.NewForConfig(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	before := heapNow()
	lw := cache.NewListWatchFromClient(cs.RESTClient(), "pods", "", fields.Everything())
	total := objects + events
	inf, done := countingPodInformer(lw, total)
	ctx, cancel := context.WithCancel(context.Background())
	sw := startTimer()
	go inf.RunWithContext(ctx)
	<-done
	t := sw.stop()
	var retained uint64
	if after := heapNow(); after > before {
		retained = after - before
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b, _ := json.Marshal(ingestResult{
		Peer: peer, Events: total, Ms: t.ms, CPUMs: t.cpuMs,
		PeakRssMB: float64(ru.Maxrss) / 1024, RetainedBytesPerObject: float64(retained) / float64(objects),
	})
	fmt.Println(string(b))
	runtime.KeepAlive(inf)
	cancel()
}
