package scope

import (
	"context"
	"errors"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/controller"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// tapClient wraps the manager's client with controller-runtime's interceptor: each write is reported with
// the reconcile that made it (its reconcileID, from the request's context) and the resourceVersion the
// API server gave the object. Reads are passed through unreported (most are served by the cache).
func (s *Scope) tapClient(c client.Client, cfg *rest.Config, co client.Options, gvks *gvkCache) client.Client {
	w := &withWatch{Client: c, cfg: cfg, opts: co}
	write := func(ctx context.Context, verb string, obj client.Object, call func() error) error {
		start := s.cfg.Now()
		err := call()
		s.wrote(ctx, verb, refOf(obj, gvks.of(obj)), s.cfg.Now().Sub(start).Seconds()*1000, err)
		return err
	}
	return interceptor.NewClient(w, interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			return write(ctx, "create", obj, func() error { return c.Create(ctx, obj, opts...) })
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			return write(ctx, "update", obj, func() error { return c.Update(ctx, obj, opts...) })
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
			return write(ctx, "patch", obj, func() error { return c.Patch(ctx, obj, p, opts...) })
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			return write(ctx, "delete", obj, func() error { return c.Delete(ctx, obj, opts...) })
		},
		DeleteAllOf: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteAllOfOption) error {
			return write(ctx, "deleteAllOf", obj, func() error { return c.DeleteAllOf(ctx, obj, opts...) })
		},
		SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			return write(ctx, subVerb("update", sub), obj, func() error { return c.SubResource(sub).Update(ctx, obj, opts...) })
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			return write(ctx, subVerb("patch", sub), obj, func() error { return c.SubResource(sub).Patch(ctx, obj, p, opts...) })
		},
	})
}

func subVerb(verb, sub string) string {
	if sub == "status" {
		return verb + "Status"
	}
	return verb
}

func (s *Scope) wrote(ctx context.Context, verb string, ref protocol.ObjectRef, took float64, err error) {
	id := string(controller.ReconcileIDFromContext(ctx))
	ev := protocol.ClientRequestEvent{Verb: verb, Ref: ref, DurationMs: took, ReconcileID: id}
	if name, ok := s.reconciles.Load(id); ok && id != "" {
		ev.Controller = name.(string)
	}
	if err != nil {
		ev.Error = err.Error()
		var se apierrors.APIStatus
		if errors.As(err, &se) {
			ev.Code = int(se.Status().Code)
		}
		// A failed write produced no new version.
		ev.Ref.ResourceVersion = ""
	} else if verb == "delete" || verb == "deleteAllOf" {
		// controller-runtime's Delete does not decode the answer into obj: the version obj carries is the
		// one before the delete, which no event will deliver again. The delete's own version is unknown.
		ev.Ref.ResourceVersion = ""
		ev.Code = 200
	} else {
		ev.Code = 200
		if verb == "create" {
			ev.Code = 201
		}
	}
	s.emit(ev)
}

// withWatch gives the manager's client the Watch method the interceptor needs (client.New does not return
// a WithWatch); a Watch call gets a watching client made on first use with the same options.
type withWatch struct {
	client.Client
	cfg  *rest.Config
	opts client.Options
	once sync.Once
	ww   client.WithWatch
	err  error
}

func (w *withWatch) Watch(ctx context.Context, list client.ObjectList, opts ...client.ListOption) (watch.Interface, error) {
	if ww, ok := w.Client.(client.WithWatch); ok {
		return ww.Watch(ctx, list, opts...)
	}
	w.once.Do(func() { w.ww, w.err = client.NewWithWatch(w.cfg, w.opts) })
	if w.err != nil {
		return nil, w.err
	}
	return w.ww.Watch(ctx, list, opts...)
}
