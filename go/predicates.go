package scope

import (
	"reflect"
	"unsafe"

	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// builder.WithPredicates keeps its predicates in an unexported field, so the drop-in cannot wrap them through
// the option itself. It reads them (by reflection, the field's type checked) and passes the watch an option
// of its own with each one tapped: the events a predicate drops are reported for the watch they belong to,
// named by the watch's handler, as the TypeScript runtime reports them. Should a controller-runtime release
// change the field, the option is passed on untouched: the predicates still filter, only unseen.

var predicateSlice = reflect.TypeFor[[]predicate.Predicate]()

// predicatesOf reads a WithPredicates option's predicates; ok is false when it cannot.
func predicatesOf(o builder.WatchesOption) (preds []predicate.Predicate, ok bool) {
	var p builder.Predicates
	switch v := o.(type) {
	case builder.Predicates:
		p = v
	case *builder.Predicates:
		if v == nil {
			return nil, false
		}
		p = *v
	default:
		return nil, false
	}
	f := reflect.ValueOf(&p).Elem().FieldByName("predicates")
	if !f.IsValid() || f.Type() != predicateSlice {
		return nil, false
	}
	return *(*[]predicate.Predicate)(unsafe.Pointer(f.UnsafeAddr())), true
}

// tapPredicateOptions returns opts with every WithPredicates option's predicates tapped for the watch whose
// handler is named handlerName.
func (b *Builder) tapPredicateOptions(opts []builder.WatchesOption, handlerName string, gvks *gvkCache) []builder.WatchesOption {
	out := make([]builder.WatchesOption, 0, len(opts))
	for _, o := range opts {
		preds, ok := predicatesOf(o)
		if !ok {
			out = append(out, o)
			continue
		}
		tapped := make([]predicate.Predicate, len(preds))
		for i, p := range preds {
			tapped[i] = &tapPredicate{s: b.s, ctrl: &b.ctrlName, name: typeName(p), handler: handlerName, gvks: gvks, inner: p}
		}
		out = append(out, builder.WithPredicates(tapped...))
	}
	return out
}
