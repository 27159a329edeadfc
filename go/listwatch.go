package scope

import (
	"context"
	"errors"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/watchlist"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// tapLW is the informer's ListerWatcher, reporting every LIST (resourceVersion, item count, pages, time),
// every WATCH (from-RV, sendInitialEvents: a streaming list) and every raw watch event, BOOKMARK and ERROR
// included. It answers IsWatchListSemanticsUnSupported as the wrapped one would, so the reflector picks the
// same list strategy it would pick without the tap.
type tapLW struct {
	inner toolscache.ListerWatcher
	tap   *informerTap
}

var _ toolscache.ListerWatcherWithContext = &tapLW{}

func (l *tapLW) List(o metav1.ListOptions) (runtime.Object, error) {
	return l.ListWithContext(context.Background(), o)
}

func (l *tapLW) Watch(o metav1.ListOptions) (watch.Interface, error) {
	return l.WatchWithContext(context.Background(), o)
}

func (l *tapLW) ListWithContext(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
	t := l.tap
	if o.Continue == "" {
		t.forgetHanded()
		t.beginList(o.ResourceVersion, "list")
	}
	start := t.s.cfg.Now()
	obj, err := toolscache.ToListerWatcherWithContext(l.inner).ListWithContext(ctx, o)
	t.page(obj, err, t.s.cfg.Now().Sub(start))
	return obj, err
}

func (l *tapLW) WatchWithContext(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
	t := l.tap
	streaming := o.SendInitialEvents != nil && *o.SendInitialEvents
	// The reflector reads no earlier watch any more: what it was handed there and did not take is not coming.
	t.forgetHanded()
	if streaming {
		t.beginList(o.ResourceVersion, "watchList")
	} else {
		t.startWatch(o.ResourceVersion, o.TimeoutSeconds)
	}
	w, err := toolscache.ToListerWatcherWithContext(l.inner).WatchWithContext(ctx, o)
	if err != nil {
		t.failed(err)
		return nil, err
	}
	return newTapWatch(w, t, streaming, o.ResourceVersion), nil
}

func (l *tapLW) IsWatchListSemanticsUnSupported() bool {
	return watchlist.DoesClientNotSupportWatchListSemantics(l.inner)
}

// tapWatch forwards the real watch's events after reporting each one.
type tapWatch struct {
	inner watch.Interface
	out   chan watch.Event
	stop  chan struct{}
	once  sync.Once
}

func newTapWatch(w watch.Interface, t *informerTap, streaming bool, fromRV string) *tapWatch {
	tw := &tapWatch{inner: w, out: make(chan watch.Event), stop: make(chan struct{})}
	go func() {
		defer close(tw.out)
		start := t.s.cfg.Now()
		events, rv, reason := 0, fromRV, "closed"
		for ev := range w.ResultChan() {
			events++
			if r := t.watchEvent(ev, &streaming); r != "" {
				rv = r
			}
			if ev.Type == watch.Error && apierrors.IsResourceExpired(apierrors.FromObject(ev.Object)) || ev.Type == watch.Error && apierrors.IsGone(apierrors.FromObject(ev.Object)) {
				reason = "expired"
			}
			select {
			case tw.out <- ev:
			case <-tw.stop:
				reason = "stopped"
				t.endWatch(rv, events, t.s.cfg.Now().Sub(start), reason)
				return
			}
		}
		select {
		case <-tw.stop:
			reason = "stopped"
		default:
		}
		t.endWatch(rv, events, t.s.cfg.Now().Sub(start), reason)
	}()
	return tw
}

func (w *tapWatch) Stop() {
	w.once.Do(func() { close(w.stop) })
	w.inner.Stop()
}

func (w *tapWatch) ResultChan() <-chan watch.Event { return w.out }

// watchEvent reports one raw event and returns its resourceVersion.
func (t *informerTap) watchEvent(ev watch.Event, streaming *bool) string {
	switch ev.Type {
	case watch.Error:
		status := apierrors.FromObject(ev.Object)
		var se apierrors.APIStatus
		code, reason := 0, "Error"
		if errors.As(status, &se) {
			code, reason = int(se.Status().Code), string(se.Status().Reason)
		}
		t.s.emit(protocol.ReflectorErrorEvent{Informer: t.id, Code: code, Reason: reason, Message: status.Error()})
		return ""
	case watch.Bookmark:
		acc, err := meta.Accessor(ev.Object)
		if err != nil {
			return ""
		}
		rv := acc.GetResourceVersion()
		t.s.emit(protocol.ReflectorBookmarkEvent{Informer: t.id, ResourceVersion: rv})
		if *streaming && acc.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
			*streaming = false
			t.endStreamingList(rv)
		}
		return rv
	default:
		obj, ok := ev.Object.(interface {
			metav1.Object
			runtime.Object
		})
		if !ok {
			return ""
		}
		t.s.emit(protocol.ReflectorWatchEventEvent{Informer: t.id, Type: string(ev.Type), Ref: t.ref(obj)})
		// Before the event is sent on, so the reflector cannot queue it before it is known.
		t.handing(ev.Type, objectKey(obj), obj.GetResourceVersion(), *streaming)
		if *streaming {
			t.countStreamed()
		}
		return obj.GetResourceVersion()
	}
}
