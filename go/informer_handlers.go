package scope

import (
	"fmt"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// The handlers controller-runtime registers on an informer (one per watch of each controller) are wrapped
// so the dashboard sees each registration and each notification, as our runtime's informers report them.

var handlerSeq atomic.Int64

func (i *tappedInformer) AddEventHandler(h toolscache.ResourceEventHandler) (toolscache.ResourceEventHandlerRegistration, error) {
	return i.SharedIndexInformer.AddEventHandler(i.notifying(h))
}

func (i *tappedInformer) AddEventHandlerWithResyncPeriod(h toolscache.ResourceEventHandler, resync time.Duration) (toolscache.ResourceEventHandlerRegistration, error) {
	return i.SharedIndexInformer.AddEventHandlerWithResyncPeriod(i.notifying(h), resync)
}

func (i *tappedInformer) AddEventHandlerWithOptions(h toolscache.ResourceEventHandler, o toolscache.HandlerOptions) (toolscache.ResourceEventHandlerRegistration, error) {
	return i.SharedIndexInformer.AddEventHandlerWithOptions(i.notifying(h), o)
}

func (i *tappedInformer) notifying(h toolscache.ResourceEventHandler) toolscache.ResourceEventHandler {
	name := fmt.Sprintf("%s#%d", typeName(h), handlerSeq.Add(1))
	i.tap.s.emit(protocol.InformerLifecycleEvent{Informer: i.tap.id, Phase: "handlerAdded", Handler: name})
	return &notifyingHandler{inner: h, tap: i.tap, name: name}
}

type notifyingHandler struct {
	inner toolscache.ResourceEventHandler
	tap   *informerTap
	name  string
}

func (n *notifyingHandler) notify(typ string, obj any, initial, resync bool) {
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	ref := protocol.ObjectRef{GVK: n.tap.id, Namespace: m.GetNamespace(), Name: m.GetName(), UID: string(m.GetUID()), ResourceVersion: m.GetResourceVersion()}
	n.tap.s.emit(protocol.InformerHandlerEvent{Informer: n.tap.id, Handler: n.name, Type: typ, Ref: ref, InitialList: initial, Resync: resync})
}

func (n *notifyingHandler) OnAdd(obj any, isInInitialList bool) {
	n.notify("add", obj, isInInitialList, false)
	n.inner.OnAdd(obj, isInInitialList)
}

func (n *notifyingHandler) OnUpdate(oldObj, newObj any) {
	resync := false
	if o, err := meta.Accessor(oldObj); err == nil {
		if nw, err := meta.Accessor(newObj); err == nil {
			resync = o.GetResourceVersion() == nw.GetResourceVersion()
		}
	}
	n.notify("update", newObj, false, resync)
	n.inner.OnUpdate(oldObj, newObj)
}

func (n *notifyingHandler) OnDelete(obj any) {
	n.notify("delete", obj, false, false)
	n.inner.OnDelete(obj)
}
