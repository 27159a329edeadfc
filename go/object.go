package scope

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/controller-scope/controller-scope/go/protocol"
)

// serveObject answers the dashboard's object browser from the informer's own store: what this process's
// cache holds, not what the API server has now.
func (s *Scope) serveObject(w http.ResponseWriter, r *http.Request) {
	id, key := r.URL.Query().Get("informer"), r.URL.Query().Get("key")
	v, ok := s.informers.Load(id)
	if !ok || key == "" {
		http.Error(w, "informer and key (namespace/name) must name an informer of this process and one of its keys", http.StatusBadRequest)
		return
	}
	t := v.(*informerTap)
	if t.inf == nil {
		http.NotFound(w, r)
		return
	}
	obj, exists, err := t.inf.GetIndexer().GetByKey(key)
	if err != nil || !exists {
		http.NotFound(w, r)
		return
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	apiVersion, kind := splitGVK(id)
	m["apiVersion"], m["kind"] = apiVersion, kind
	if kind == "Secret" && apiVersion == "v1" {
		delete(m, "data")
		delete(m, "stringData")
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(m)
}

// splitGVK turns "apps/v1/Deployment" into ("apps/v1", "Deployment"), "v1/Pod" into ("v1", "Pod").
func splitGVK(id protocol.InformerID) (string, string) {
	i := strings.LastIndex(id, "/")
	if i < 0 {
		return "", id
	}
	return id[:i], id[i+1:]
}
