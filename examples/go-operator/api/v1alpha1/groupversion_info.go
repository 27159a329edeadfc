// Package v1alpha1 holds the Website API (example.controller-scope.dev/v1alpha1).
// +kubebuilder:object:generate=true
// +groupName=example.controller-scope.dev
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the group and version of the Website kind.
	GroupVersion = schema.GroupVersion{Group: "example.controller-scope.dev", Version: "v1alpha1"}
	// SchemeBuilder registers the Website types.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}
	// AddToScheme adds the types of this group to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
