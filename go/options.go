package scope

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// Options is ctrl.Options with the manager-wide taps added, reporting to the process-wide Scope.
func Options(o ctrl.Options) ctrl.Options { return Default().Options(o) }

// Options adds the manager-wide taps to o: every informer is built through a tapped ListerWatcher and gets
// a side handler, watch errors are reported (and still logged as upstream logs them), and the manager's
// client reports each write with the reconcile that made it and the resourceVersion it produced. Options
// already set (NewInformer, DefaultWatchErrorHandler, NewClient) are wrapped, not replaced.
func (s *Scope) Options(o ctrl.Options) ctrl.Options {
	sch := o.Scheme
	if sch == nil {
		sch = scheme.Scheme
	}
	gvks := &gvkCache{scheme: sch}

	newInformer := o.Cache.NewInformer
	if newInformer == nil {
		newInformer = toolscache.NewSharedIndexInformer
	}
	o.Cache.NewInformer = func(lw toolscache.ListerWatcher, obj runtime.Object, resync time.Duration, ix toolscache.Indexers) toolscache.SharedIndexInformer {
		id := gvks.of(obj)
		t := s.informerTap(id, obj)
		inf := newInformer(&tapLW{inner: lw, tap: t}, obj, resync, ix)
		t.attach(inf)
		return &tappedInformer{SharedIndexInformer: inf, tap: t}
	}

	onWatchError := o.Cache.DefaultWatchErrorHandler
	if onWatchError == nil {
		onWatchError = toolscache.DefaultWatchErrorHandler
	}
	o.Cache.DefaultWatchErrorHandler = func(ctx context.Context, r *toolscache.Reflector, err error) {
		s.watchError(r, err)
		onWatchError(ctx, r, err)
	}

	newClient := o.NewClient
	if newClient == nil {
		newClient = client.New
	}
	o.NewClient = func(cfg *rest.Config, co client.Options) (client.Client, error) {
		c, err := newClient(cfg, co)
		if err != nil {
			return nil, err
		}
		cs := co.Scheme
		if cs == nil {
			cs = sch
		}
		return s.tapClient(c, cfg, co, &gvkCache{scheme: cs}), nil
	}

	s.mu.Lock()
	s.namespaces = s.namespaces[:0]
	for ns := range o.Cache.DefaultNamespaces {
		s.namespaces = append(s.namespaces, ns)
	}
	s.mu.Unlock()

	if o.LeaderElection {
		s.mu.Lock()
		s.lease = o.LeaderElectionID
		s.mu.Unlock()
	}
	return o
}

// watchManager reports the manager's start and stop and, with leader election, when this process leads.
// It runs once per manager (the first NewControllerManagedBy call adds it).
func (s *Scope) watchManager(mgr manager.Manager) {
	s.mu.Lock()
	if s.managers == nil {
		s.managers = map[manager.Manager]bool{}
	}
	seen := s.managers[mgr]
	s.managers[mgr] = true
	if s.reader == nil {
		s.reader = mgr.GetAPIReader()
	}
	lease := s.lease
	s.mu.Unlock()
	if seen {
		return
	}
	_ = mgr.Add(everyReplica(func(ctx context.Context) error {
		s.emit(protocol.ManagerLifecycleEvent{Phase: "started"})
		if lease != "" {
			s.emit(protocol.LeaderElectionEvent{Lease: lease, Identity: s.cfg.Process, Phase: "acquiring"})
		}
		<-ctx.Done()
		s.emit(protocol.ManagerLifecycleEvent{Phase: "stopping"})
		return nil
	}))
	if lease != "" {
		_ = mgr.Add(&leaderRunnable{s: s, lease: lease})
	}
}

// everyReplica runs on every replica, leader or not: a plain RunnableFunc would join the leader-election
// group and start only on the leader, so a standby would never say it started or is waiting for the lease.
type everyReplica func(ctx context.Context) error

func (f everyReplica) Start(ctx context.Context) error { return f(ctx) }
func (f everyReplica) NeedLeaderElection() bool        { return false }

// leaderRunnable starts only once this process holds the lease.
type leaderRunnable struct {
	s     *Scope
	lease string
}

func (l *leaderRunnable) NeedLeaderElection() bool { return true }

func (l *leaderRunnable) Start(ctx context.Context) error {
	l.s.emit(protocol.LeaderElectionEvent{Lease: l.lease, Identity: l.s.cfg.Process, Holder: l.s.cfg.Process, Phase: "acquired"})
	<-ctx.Done()
	return nil
}
