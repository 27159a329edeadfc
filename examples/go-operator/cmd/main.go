// The Website operator's entry point, laid out as kubebuilder scaffolds it. What differs from a plain
// controller-runtime project is the scope import and scope.Options around the options at the NewManager call
// (what controller-scope adopt-go writes).
package main

import (
	"flag"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	scope "github.com/controller-scope/controller-scope/go"

	examplev1alpha1 "github.com/controller-scope/controller-scope/examples/go-operator/api/v1alpha1"
	"github.com/controller-scope/controller-scope/examples/go-operator/internal/controller"
)

var (
	scheme   = runtime.NewScheme()
	setupLog = ctrl.Log.WithName("setup")
)

func init() {
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(examplev1alpha1.AddToScheme(scheme))
}

func main() {
	var metricsAddr, probeAddr, leaderElectionNamespace string
	var enableLeaderElection, buggy bool
	flag.StringVar(&metricsAddr, "metrics-bind-address", "0", "The address the metrics endpoint binds to (0 turns it off).")
	flag.StringVar(&probeAddr, "health-probe-bind-address", "0", "The address the probe endpoint binds to (0 turns it off).")
	flag.BoolVar(&enableLeaderElection, "leader-elect", false, "Enable leader election, so only one replica is active.")
	flag.StringVar(&leaderElectionNamespace, "leader-election-namespace", "", "Namespace of the leader election Lease (needed outside a cluster).")
	flag.BoolVar(&buggy, "buggy", false, "Write status.lastReconcileTime on every pass (a hot loop, for the dashboard to find).")
	opts := zap.Options{Development: true}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))

	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), scope.Options(ctrl.Options{
		Scheme:                  scheme,
		Metrics:                 metricsserver.Options{BindAddress: metricsAddr},
		HealthProbeBindAddress:  probeAddr,
		LeaderElection:          enableLeaderElection,
		LeaderElectionID:        "website-operator.example.controller-scope.dev",
		LeaderElectionNamespace: leaderElectionNamespace,
	}))
	if err != nil {
		setupLog.Error(err, "unable to start manager")
		os.Exit(1)
	}

	if err := (&controller.WebsiteReconciler{Client: mgr.GetClient(), Scheme: mgr.GetScheme(), Buggy: buggy}).SetupWithManager(mgr); err != nil {
		setupLog.Error(err, "unable to create controller", "controller", "Website")
		os.Exit(1)
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		setupLog.Error(err, "unable to set up health check")
		os.Exit(1)
	}

	setupLog.Info("starting manager")
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		setupLog.Error(err, "problem running manager")
		os.Exit(1)
	}
}
