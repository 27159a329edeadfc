package v1

import (
	"context"
	"errors"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	webappv1 "example.com/guestbook/api/v1"
)

// SetupGuestbookWebhookWithManager registers the webhook for Guestbook in the manager. A webhook builder is
// not a controller builder: adoption leaves it as it is.
func SetupGuestbookWebhookWithManager(mgr ctrl.Manager) error {
	return ctrl.NewWebhookManagedBy(mgr, &webappv1.Guestbook{}).
		WithValidator(&GuestbookCustomValidator{}).
		Complete()
}

// GuestbookCustomValidator refuses a Guestbook without foo.
type GuestbookCustomValidator struct{}

func (v *GuestbookCustomValidator) ValidateCreate(_ context.Context, g *webappv1.Guestbook) (admission.Warnings, error) {
	return nil, validate(g)
}

func (v *GuestbookCustomValidator) ValidateUpdate(_ context.Context, _, g *webappv1.Guestbook) (admission.Warnings, error) {
	return nil, validate(g)
}

func (v *GuestbookCustomValidator) ValidateDelete(context.Context, *webappv1.Guestbook) (admission.Warnings, error) {
	return nil, nil
}

func validate(g *webappv1.Guestbook) error {
	if g.Spec.Foo == "" {
		return errors.New("spec.foo must be set")
	}
	return nil
}
