package scope

import "container/list"

// lru is a map that forgets its least recently set entry past a size: the planner's per-key memory must
// not grow with every key a long-running controller ever saw.
type lru[V any] struct {
	max   int
	order *list.List // of string keys, oldest at the front
	items map[string]*list.Element
	vals  map[string]V
}

func newLRU[V any](max int) *lru[V] {
	return &lru[V]{max: max, order: list.New(), items: map[string]*list.Element{}, vals: map[string]V{}}
}

func (l *lru[V]) get(k string) (V, bool) {
	v, ok := l.vals[k]
	return v, ok
}

func (l *lru[V]) put(k string, v V) {
	if e, ok := l.items[k]; ok {
		l.order.MoveToBack(e)
	} else {
		l.items[k] = l.order.PushBack(k)
	}
	l.vals[k] = v
	if l.order.Len() > l.max {
		l.remove(l.order.Front().Value.(string))
	}
}

func (l *lru[V]) remove(k string) {
	if e, ok := l.items[k]; ok {
		l.order.Remove(e)
		delete(l.items, k)
		delete(l.vals, k)
	}
}
