package scope

import (
	"encoding/json"
	"net/http"
	"sort"
	"strconv"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// compareAnswer is what GET /compare returns: every key and resourceVersion the informer's store holds,
// and the same from a paged LIST of the API server. The dashboard diffs the two with the same code it uses
// for its own caches (shared/protocol/drift.ts), so both languages report drift alike.
type compareAnswer struct {
	ListResourceVersion string      `json:"listResourceVersion"`
	Pages               int         `json:"pages"`
	Server              [][2]string `json:"server"`
	Cache               [][2]string `json:"cache"`
}

// serveCompare lists the informer's kind through the manager's API reader (metadata only, never the
// cache), in the namespaces the cache is restricted to, then reads the store: anything the store got
// meanwhile is newer than the LIST, which the diff tells from drift. Reads only.
func (s *Scope) serveCompare(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("informer")
	v, ok := s.informers.Load(id)
	if !ok {
		http.Error(w, "informer must name an informer of this process", http.StatusBadRequest)
		return
	}
	pageSize, err := strconv.Atoi(r.URL.Query().Get("pageSize"))
	if err != nil || pageSize < 1 || pageSize > 10000 {
		http.Error(w, "pageSize must be a whole number from 1 to 10000", http.StatusBadRequest)
		return
	}
	t := v.(*informerTap)
	reader := s.apiReader()
	if reader == nil || t.inf == nil {
		http.Error(w, "the manager has not started its caches yet", http.StatusServiceUnavailable)
		return
	}
	ans, err := s.listVersions(r, reader, id, int64(pageSize))
	if err != nil {
		http.Error(w, "listing from the API server failed: "+err.Error(), http.StatusBadGateway)
		return
	}
	for _, obj := range t.inf.GetStore().List() {
		if m, err := meta.Accessor(obj); err == nil {
			ans.Cache = append(ans.Cache, [2]string{metaKey(m.GetNamespace(), m.GetName()), m.GetResourceVersion()})
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(ans)
}

func (s *Scope) listVersions(r *http.Request, reader client.Reader, id protocol.InformerID, limit int64) (*compareAnswer, error) {
	apiVersion, kind := splitGVK(id)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	ans := &compareAnswer{Server: [][2]string{}, Cache: [][2]string{}}
	for _, ns := range s.cacheNamespaces() {
		cont := ""
		for {
			list := &metav1.PartialObjectMetadataList{}
			list.SetGroupVersionKind(gv.WithKind(kind + "List"))
			opts := []client.ListOption{client.Limit(limit)}
			if cont != "" {
				opts = append(opts, client.Continue(cont))
			}
			if ns != "" {
				opts = append(opts, client.InNamespace(ns))
			}
			if err := reader.List(r.Context(), list, opts...); err != nil {
				return nil, err
			}
			ans.Pages++
			if ans.ListResourceVersion == "" {
				ans.ListResourceVersion = list.GetResourceVersion()
			}
			for _, item := range list.Items {
				ans.Server = append(ans.Server, [2]string{metaKey(item.Namespace, item.Name), item.ResourceVersion})
			}
			if cont = list.GetContinue(); cont == "" {
				break
			}
		}
	}
	return ans, nil
}

// cacheNamespaces is where the manager's cache looks: the namespaces of Cache.DefaultNamespaces when the
// options named some, else every namespace (""). Per-object selectors (Cache.ByObject) are not applied, so
// a cache narrowed by a label selector reads as missing the objects it leaves out.
func (s *Scope) cacheNamespaces() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.namespaces) == 0 {
		return []string{""}
	}
	out := append([]string(nil), s.namespaces...)
	sort.Strings(out)
	return out
}

func (s *Scope) apiReader() client.Reader {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reader
}

// metaKey is client-go's MetaNamespaceKeyFunc over a name and namespace.
func metaKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}
