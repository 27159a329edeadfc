package scope

import (
	"fmt"
	"runtime/debug"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// gvkString names a kind as the protocol does: "group/version/Kind", "v1/Pod" for the core group.
func gvkString(gvk schema.GroupVersionKind) string {
	if gvk.Group == "" {
		return gvk.Version + "/" + gvk.Kind
	}
	return gvk.Group + "/" + gvk.Version + "/" + gvk.Kind
}

func refOf(obj client.Object, gvk string) protocol.ObjectRef {
	return protocol.ObjectRef{
		GVK:             gvk,
		Namespace:       obj.GetNamespace(),
		Name:            obj.GetName(),
		UID:             string(obj.GetUID()),
		ResourceVersion: obj.GetResourceVersion(),
	}
}

// keyOf is client-go's MetaNamespaceKeyFunc for a request: "namespace/name", or "name" when cluster-scoped.
func keyOf(req reconcile.Request) string {
	if req.Namespace == "" {
		return req.Name
	}
	return req.Namespace + "/" + req.Name
}

// typeName is a value's type without package or pointer, e.g. "GenerationChangedPredicate".
func typeName(v any) string {
	n := strings.TrimLeft(fmtType(v), "*")
	if i := strings.Index(n, "["); i >= 0 {
		n = n[:i]
	}
	if i := strings.LastIndex(n, "."); i >= 0 {
		n = n[i+1:]
	}
	if n == "" {
		return "unknown"
	}
	return strings.ToUpper(n[:1]) + n[1:]
}

func controllerRuntimeVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range info.Deps {
		if d.Path == "sigs.k8s.io/controller-runtime" {
			if d.Replace != nil {
				return d.Replace.Version
			}
			return d.Version
		}
	}
	return ""
}

func fmtType(v any) string { return fmt.Sprintf("%T", v) }
