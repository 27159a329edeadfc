package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WebsiteSpec asks for a static site: an nginx Deployment serving a page kept in a ConfigMap.
type WebsiteSpec struct {
	// Image serving /usr/share/nginx/html. Default nginx:1.27-alpine.
	Image string `json:"image,omitempty"`
	// Replicas of the Deployment. Default 1.
	Replicas *int32 `json:"replicas,omitempty"`
	// Title is the heading of the page.
	Title string `json:"title,omitempty"`
}

// WebsiteStatus is what the controller last observed.
type WebsiteStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	AvailableReplicas  int32              `json:"availableReplicas,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
	// LastReconcileTime is written on every pass only by the buggy variant: that write is the hot loop.
	LastReconcileTime *metav1.MicroTime `json:"lastReconcileTime,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Website is a static site.
type Website struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WebsiteSpec   `json:"spec,omitempty"`
	Status WebsiteStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// WebsiteList is a list of Websites.
type WebsiteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Website `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Website{}, &WebsiteList{})
}
