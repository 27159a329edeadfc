package controller

import (
	"os"
	"testing"

	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
)

// A test that makes its own manager: adoption leaves test files alone, so this second NewManager is
// neither wrapped nor counted.
func TestManagerStarts(t *testing.T) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		t.Skip("needs envtest (KUBEBUILDER_ASSETS)")
	}
	mgr, err := ctrl.NewManager(&rest.Config{Host: os.Getenv("TEST_API_SERVER")}, ctrl.Options{Scheme: scheme.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	if err := (&GuestbookReconciler{Client: mgr.GetClient(), Scheme: mgr.GetScheme()}).SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
}
