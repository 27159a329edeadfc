// The oracle's Go controller: "mirror", the same behaviour as test/truth/controllers/mirror.ts, on a real
// controller-runtime manager adopting the module as go/README.md says. The behaviour's names come from
// TRUTH_BEHAVIOUR (JSON, written by the harness from test/truth/oracle/behaviour.ts), so there is one copy.
// Every write, every reconcile and the moment this replica is elected go to TRUTH_LOG: ground truth kept
// apart from the module's event stream.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	scope "github.com/controller-scope/controller-scope/go"
)

type behaviour struct {
	Controller        string `json:"controller"`
	SeedLabel         string `json:"seedLabel"`
	LoopLabel         string `json:"loopLabel"`
	TickAnnotation    string `json:"tickAnnotation"`
	MaxTicks          int    `json:"maxTicks"`
	FailAnnotation    string `json:"failAnnotation"`
	RequeueAnnotation string `json:"requeueAnnotation"`
	MaxRequeues       int    `json:"maxRequeues"`
}

// truthLog appends records, each naming this run of the process (its generation).
type truthLog struct {
	mu         sync.Mutex
	f          *os.File
	generation string
}

func (t *truthLog) add(rec map[string]any) {
	rec["ts"] = time.Now().UnixMilli()
	rec["generation"] = t.generation
	line, _ := json.Marshal(rec)
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = t.f.Write(append(line, '\n'))
}

type mirror struct {
	b        behaviour
	c        client.Client
	reader   client.Reader
	scheme   *runtime.Scheme
	log      *truthLog
	mu       sync.Mutex
	failures map[string]int
	requeues map[string]int
}

func (m *mirror) wrote(ctx context.Context, verb string, obj client.Object, key string) {
	rv := obj.GetResourceVersion()
	if verb == "delete" {
		rv = ""
	}
	m.log.add(map[string]any{
		"kind": "write", "controller": m.b.Controller, "verb": verb, "namespace": obj.GetNamespace(), "name": obj.GetName(),
		"uid": string(obj.GetUID()), "resourceVersion": rv, "key": key, "reconcileId": string(controller.ReconcileIDFromContext(ctx)),
	})
}

func (m *mirror) Reconcile(ctx context.Context, req reconcile.Request) (res reconcile.Result, err error) {
	key := req.String()
	id := string(controller.ReconcileIDFromContext(ctx))
	m.log.add(map[string]any{"kind": "reconcile", "controller": m.b.Controller, "key": key, "phase": "start", "reconcileId": id})
	read := map[string]string{}
	defer func() {
		outcome := "success"
		switch {
		case err != nil:
			outcome = "error"
		case res.RequeueAfter > 0:
			outcome = "requeueAfter"
		}
		m.mu.Lock()
		if err != nil {
			m.failures[key]++
		} else {
			delete(m.failures, key)
		}
		m.mu.Unlock()
		m.log.add(map[string]any{"kind": "reconcile", "controller": m.b.Controller, "key": key, "phase": "end", "outcome": outcome,
			"reconcileId": id, "cmRv": read["cm"], "secretRv": read["secret"]})
	}()
	return m.pass(ctx, req, key, read)
}

func (m *mirror) pass(ctx context.Context, req reconcile.Request, key string, read map[string]string) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := m.c.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	read["cm"] = cm.ResourceVersion
	if _, ok := cm.Labels[m.b.SeedLabel]; !ok {
		return reconcile.Result{}, nil
	}
	planned, _ := strconv.Atoi(cm.Annotations[m.b.FailAnnotation])
	m.mu.Lock()
	failed := m.failures[key]
	m.mu.Unlock()
	if failed < planned {
		return reconcile.Result{}, fmt.Errorf("planned failure %d of %d", failed+1, planned)
	}
	if err := m.ensureSecret(ctx, &cm, key, read); err != nil {
		return reconcile.Result{}, err
	}
	if cm.Labels[m.b.LoopLabel] == "true" {
		if err := m.tick(ctx, &cm, key); err != nil {
			return reconcile.Result{}, err
		}
	}
	after, _ := strconv.Atoi(cm.Annotations[m.b.RequeueAnnotation])
	m.mu.Lock()
	defer m.mu.Unlock()
	if after > 0 && m.requeues[key] < m.b.MaxRequeues {
		m.requeues[key]++
		return reconcile.Result{RequeueAfter: time.Duration(after) * time.Millisecond}, nil
	}
	return reconcile.Result{}, nil
}

func (m *mirror) desired(cm *corev1.ConfigMap) map[string][]byte {
	data := map[string][]byte{}
	for k, v := range cm.Data {
		data[k] = []byte(v)
	}
	return data
}

func (m *mirror) ensureSecret(ctx context.Context, cm *corev1.ConfigMap, key string, read map[string]string) error {
	name := client.ObjectKey{Namespace: cm.Namespace, Name: cm.Name + "-mirror"}
	var have corev1.Secret
	err := m.reader.Get(ctx, name, &have)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	if apierrors.IsNotFound(err) {
		s := corev1.Secret{Data: m.desired(cm)}
		s.Namespace, s.Name = name.Namespace, name.Name
		s.Labels = map[string]string{m.b.SeedLabel: cm.Labels[m.b.SeedLabel]}
		if err := controllerutil.SetControllerReference(cm, &s, m.scheme); err != nil {
			return err
		}
		if err := m.c.Create(ctx, &s); err != nil {
			return client.IgnoreAlreadyExists(err)
		}
		m.wrote(ctx, "create", &s, key)
		return nil
	}
	read["secret"] = have.ResourceVersion
	want := m.desired(cm)
	if equalData(have.Data, want) {
		return nil
	}
	have.Data = want
	if err := m.c.Update(ctx, &have); err != nil {
		return err
	}
	m.wrote(ctx, "update", &have, key)
	return nil
}

func equalData(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if string(b[k]) != string(v) {
			return false
		}
	}
	return true
}

func (m *mirror) tick(ctx context.Context, cm *corev1.ConfigMap, key string) error {
	n, _ := strconv.Atoi(cm.Annotations[m.b.TickAnnotation])
	if n >= m.b.MaxTicks {
		return nil
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[m.b.TickAnnotation] = strconv.Itoa(n + 1)
	if err := m.c.Update(ctx, cm); err != nil {
		return err
	}
	m.wrote(ctx, "update", cm, key)
	return nil
}

func main() {
	leaderElect := flag.Bool("leader-elect", false, "elect a leader among replicas")
	leaseNamespace := flag.String("lease-namespace", "default", "where the lease lives")
	flag.Parse()
	var b behaviour
	if err := json.Unmarshal([]byte(os.Getenv("TRUTH_BEHAVIOUR")), &b); err != nil {
		fmt.Fprintln(os.Stderr, "TRUTH_BEHAVIOUR:", err)
		os.Exit(2)
	}
	f, err := os.OpenFile(os.Getenv("TRUTH_LOG"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "TRUTH_LOG:", err)
		os.Exit(2)
	}
	log := &truthLog{f: f, generation: fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())}
	log.add(map[string]any{"kind": "setup"})
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		panic(err)
	}
	lease, renew, retry := 4*time.Second, 3*time.Second, 500*time.Millisecond
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), scope.Options(ctrl.Options{
		Scheme:                  scheme,
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:  "0",
		LeaderElection:          *leaderElect,
		LeaderElectionID:        "truth-mirror",
		LeaderElectionNamespace: *leaseNamespace,
		LeaseDuration:           &lease,
		RenewDeadline:           &renew,
		RetryPeriod:             &retry,
	}))
	if err != nil {
		fmt.Fprintln(os.Stderr, "manager:", err)
		os.Exit(1)
	}
	r := &mirror{b: b, c: mgr.GetClient(), reader: mgr.GetAPIReader(), scheme: scheme, log: log,
		failures: map[string]int{}, requeues: map[string]int{}}
	if err := scope.NewControllerManagedBy(mgr).Named(b.Controller).For(&corev1.ConfigMap{}).Owns(&corev1.Secret{}).Complete(r); err != nil {
		fmt.Fprintln(os.Stderr, "controller:", err)
		os.Exit(1)
	}
	go func() {
		<-mgr.Elected()
		log.add(map[string]any{"kind": "elected", "process": os.Getenv("CONTROLLER_SCOPE_PROCESS")})
	}()
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		fmt.Fprintln(os.Stderr, "manager:", err)
		os.Exit(1)
	}
}
