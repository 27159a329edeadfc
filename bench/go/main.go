// Go peers for `npm run bench`: the workloads of bench/*.ts run on client-go itself, printed as JSON lines
// (one per workload) so the TypeScript runner can put both figures side by side. Shapes must stay in step
// with bench/shapes.ts (sizes) and the workload files beside it (labels).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

type result struct {
	Bench  string   `json:"bench"`
	Impl   string   `json:"impl"`
	Ops    int      `json:"ops"`
	Ms     float64  `json:"ms"`
	CPUMs  float64  `json:"cpuMs"`
	OpsSec float64  `json:"opsPerSec"`
	HeapMB *float64 `json:"heapMB,omitempty"`
	Reps   int      `json:"reps"`
}

type shape struct {
	queueKeys, queueRounds, queueDup int
	rlKeys, rlRounds                 int
	pods, updates                    int
	reps                             int
}

func fullShape() shape {
	return shape{queueKeys: 1000, queueRounds: 50, queueDup: 10, rlKeys: 1000, rlRounds: 100, pods: 10_000, updates: 50_000, reps: 5}
}

func quickShape() shape {
	return shape{queueKeys: 1000, queueRounds: 5, queueDup: 10, rlKeys: 1000, rlRounds: 10, pods: 1_000, updates: 5_000, reps: 1}
}

// sample is one repetition: wall and process CPU time of the timed part, and retained heap (negative when
// not measured).
type sample struct{ ms, cpuMs, heapMB float64 }

// stopwatch measures wall time and the process's CPU time (user+system, every thread), as the TypeScript
// side does with process.cpuUsage().
type stopwatch struct {
	wall time.Time
	cpu  float64
}

func cpuNow() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

func startTimer() stopwatch { return stopwatch{wall: time.Now(), cpu: cpuNow()} }

func (s stopwatch) stop() sample {
	return sample{ms: float64(time.Since(s.wall).Microseconds()) / 1000, cpuMs: cpuNow() - s.cpu, heapMB: -1}
}

func median(xs []float64) float64 {
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

// run repeats fn and reports the median wall and CPU times; the heap figure is the last run's. A first
// untimed run warms caches so both languages are measured warm.
func run(bench string, ops, reps int, fn func() sample) {
	fn()
	times := make([]float64, 0, reps)
	cpus := make([]float64, 0, reps)
	heap := -1.0
	for i := 0; i < reps; i++ {
		s := fn()
		times = append(times, s.ms)
		cpus = append(cpus, s.cpuMs)
		heap = s.heapMB
	}
	report(bench, ops, reps, times, cpus, heap)
}

// runWithHeap is run for a workload that also reports the heap it retains. The timed repetitions skip the
// forced collections a heap reading needs, and one more repetition, after them, measures the heap: the
// TypeScript side does the same, where a forced full collection before each timed run would start it on a
// shrunken heap and double its collector's work.
func runWithHeap(bench string, ops, reps int, fn func(measureHeap bool) sample) {
	fn(false)
	times := make([]float64, 0, reps)
	cpus := make([]float64, 0, reps)
	for i := 0; i < reps; i++ {
		s := fn(false)
		times = append(times, s.ms)
		cpus = append(cpus, s.cpuMs)
	}
	report(bench, ops, reps, times, cpus, fn(true).heapMB)
}

func report(bench string, ops, reps int, times, cpus []float64, heap float64) {
	med := median(times)
	r := result{Bench: bench, Impl: "client-go", Ops: ops, Ms: med, CPUMs: median(cpus), OpsSec: float64(ops) / (med / 1000), Reps: reps}
	if heap >= 0 {
		r.HeapMB = &heap
	}
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
}

func heapNow() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// heapBefore is the baseline of a heap reading, or 0 for a timed repetition, which takes none.
func heapBefore(measureHeap bool) uint64 {
	if !measureHeap {
		return 0
	}
	return heapNow()
}

func mb(before, after uint64) float64 {
	if after < before {
		return 0
	}
	return float64(after-before) / (1 << 20)
}

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "ns/obj-" + strconv.Itoa(i)
	}
	return out
}

// workqueue: every round adds each key dup times (all but the first are absorbed), then one worker drains
// with get/done.
func benchQueue(s shape) {
	keys := names(s.queueKeys)
	runWithHeap("workqueue add/get/done (dedup)", s.queueKeys*s.queueRounds*s.queueDup, s.reps, func(measureHeap bool) sample {
		before := heapBefore(measureHeap)
		q := workqueue.NewTyped[string]()
		sw := startTimer()
		for r := 0; r < s.queueRounds; r++ {
			for d := 0; d < s.queueDup; d++ {
				for _, k := range keys {
					q.Add(k)
				}
			}
			for q.Len() > 0 {
				item, _ := q.Get()
				q.Done(item)
			}
		}
		t := sw.stop()
		if measureHeap {
			t.heapMB = mb(before, heapNow())
		}
		q.ShutDown()
		return t
	})
}

// rate-limited add + forget with the default controller rate limiter (per-item exponential, max'd with a
// 10 qps / 100 burst bucket): after the burst every add is delayed, so the delaying queue holds the keys.
func benchRateLimited(s shape) {
	keys := names(s.rlKeys)
	runWithHeap("ratelimited addRateLimited+forget", s.rlKeys*s.rlRounds, s.reps, func(measureHeap bool) sample {
		before := heapBefore(measureHeap)
		q := workqueue.NewTypedRateLimitingQueue[string](workqueue.DefaultTypedControllerRateLimiter[string]())
		sw := startTimer()
		for r := 0; r < s.rlRounds; r++ {
			for _, k := range keys {
				q.AddRateLimited(k)
				q.Forget(k)
			}
		}
		t := sw.stop()
		if measureHeap {
			t.heapMB = mb(before, heapNow())
		}
		q.ShutDown()
		return t
	})
}

func pod(i, rv int) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "pod-" + strconv.Itoa(i), Namespace: "ns-" + strconv.Itoa(i%10),
			ResourceVersion: strconv.Itoa(rv), UID: types.UID("uid-" + strconv.Itoa(i)),
			Labels: map[string]string{"app": "bench", "shard": strconv.Itoa(i % 7)},
		},
		Spec:   corev1.PodSpec{NodeName: "node-" + strconv.Itoa(i%50), Containers: []corev1.Container{{Name: "c", Image: "nginx:1.27"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0." + strconv.Itoa(i/250%250) + "." + strconv.Itoa(i%250)},
	}
}

// noWatchList marks the fake ListWatch as not speaking the WatchList protocol: current client-go tries a
// streaming list first and would wait forever for the initial-events bookmark a fake watch never sends.
type noWatchList struct{ *cache.ListWatch }

func (noWatchList) IsWatchListSemanticsUnSupported() bool { return true }

// countingPodInformer: a Pod SharedIndexInformer with a namespace index and one handler that counts adds and
// updates; done closes once it has seen total of them. The in-process and ingest benches share it.
func countingPodInformer(lw cache.ListerWatcher, total int) (cache.SharedIndexInformer, <-chan struct{}) {
	inf := cache.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	done := make(chan struct{})
	count := 0
	tick := func() {
		count++
		if count == total {
			close(done)
		}
	}
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { tick() },
		UpdateFunc: func(any, any) { tick() },
	})
	return inf, done
}

// informer: a SharedIndexInformer (namespace index, one handler) lists n pods, then takes `updates`
// MODIFIED events from a fake watch. Pods are built inside list/watch so only what the informer keeps is
// retained; the heap figure is measured with the informer still running.
func benchInformer(s shape) {
	n, updates := s.pods, s.updates
	runWithHeap(fmt.Sprintf("informer list %dk + %dk updates", n/1000, updates/1000), n+updates, s.reps, func(measureHeap bool) sample {
		before := heapBefore(measureHeap)
		fw := watch.NewFake()
		lw := noWatchList{&cache.ListWatch{
			ListFunc: func(metav1.ListOptions) (apiruntime.Object, error) {
				items := make([]corev1.Pod, n)
				for i := range items {
					items[i] = *pod(i, i+1)
				}
				return &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: strconv.Itoa(n)}, Items: items}, nil
			},
			WatchFunc: func(metav1.ListOptions) (watch.Interface, error) { return fw, nil },
		}}
		inf, done := countingPodInformer(lw, n+updates)
		ctx, cancel := context.WithCancel(context.Background())
		sw := startTimer()
		go inf.RunWithContext(ctx)
		for u := 0; u < updates; u++ {
			fw.Modify(pod(u%n, n+u+1))
		}
		<-done
		t := sw.stop()
		if measureHeap {
			t.heapMB = mb(before, heapNow())
		}
		runtime.KeepAlive(inf)
		cancel()
		return t
	})
}

// sandbox: the same server the TypeScript client talks to, over JSON.
func benchSandbox(url, namespace, fromRV string, objects, events, reps int) {
	cfg := &rest.Config{
		Host:          url,
		QPS:           -1,
		ContentConfig: rest.ContentConfig{ContentType: "application/json", AcceptContentTypes: "application/json"},
	}
	cs, err := corev1client.NewForConfig(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cms := cs.ConfigMaps(namespace)
	ctx := context.Background()
	listOnce := func(limit int64) int {
		got, cont := 0, ""
		for {
			l, err := cms.List(ctx, metav1.ListOptions{Limit: limit, Continue: cont})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			got += len(l.Items)
			cont = l.Continue
			if cont == "" {
				return got
			}
		}
	}
	for _, limit := range []int64{0, 500} {
		label := fmt.Sprintf("sandbox list %gk configmaps (one page)", float64(objects)/1000)
		if limit > 0 {
			label = fmt.Sprintf("sandbox list %gk configmaps (pages of 500)", float64(objects)/1000)
		}
		run(label, objects, reps, func() sample {
			sw := startTimer()
			if got := listOnce(limit); got != objects {
				fmt.Fprintf(os.Stderr, "listed %d configmaps, want %d\n", got, objects)
				os.Exit(1)
			}
			return sw.stop()
		})
	}
	run(fmt.Sprintf("sandbox informer sync %gk configmaps", float64(objects)/1000), objects, reps, func() sample {
		lw := noWatchList{cache.NewListWatchFromClient(cs.RESTClient(), "configmaps", namespace, fields.Everything())}
		inf := cache.NewSharedIndexInformer(lw, &corev1.ConfigMap{}, 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
		done := make(chan struct{})
		count := 0
		_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(any) {
			count++
			if count == objects {
				close(done)
			}
		}})
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		sw := startTimer()
		go inf.RunWithContext(sctx)
		<-done
		return sw.stop()
	})
	run(fmt.Sprintf("sandbox watch replay %gk events", float64(events)/1000), events, reps, func() sample {
		sw := startTimer()
		w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: fromRV})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		got := 0
		for range w.ResultChan() {
			got++
			if got == events {
				break
			}
		}
		w.Stop()
		if got != events {
			fmt.Fprintf(os.Stderr, "watched %d events, want %d\n", got, events)
			os.Exit(1)
		}
		return sw.stop()
	})
}

func main() {
	quick := flag.Bool("quick", false, "small shapes, one repetition (smoke run)")
	only := flag.String("only", "queue,ratelimited,informer", "comma-separated workloads to run")
	sandboxURL := flag.String("sandbox", "", "sandbox base URL for the sandbox workloads")
	namespace := flag.String("namespace", "bench", "namespace holding the sandbox configmaps")
	fromRV := flag.String("from-rv", "", "resourceVersion the watch replay starts after")
	objects := flag.Int("objects", 5000, "configmaps the sandbox holds")
	events := flag.Int("events", 0, "events the watch replay must deliver")
	protobuf := flag.Bool("protobuf", false, "ingest: ask for application/vnd.kubernetes.protobuf instead of JSON")
	dir := flag.String("dir", "", "convert: the directory holding the JSON to encode as protobuf")
	flag.Parse()
	s := fullShape()
	if *quick {
		s = quickShape()
	}
	for _, w := range strings.Split(*only, ",") {
		switch w {
		case "queue":
			benchQueue(s)
		case "ratelimited":
			benchRateLimited(s)
		case "informer":
			benchInformer(s)
		case "sandbox":
			benchSandbox(*sandboxURL, *namespace, *fromRV, *objects, *events, s.reps)
		case "ingest":
			benchIngest(*sandboxURL, *objects, *events, *protobuf)
		case "convert":
			benchConvert(*dir)
		case "":
		default:
			fmt.Fprintf(os.Stderr, "unknown workload %q\n", w)
			os.Exit(2)
		}
	}
}
