/**
 * The controller-runtime versions the Go side is tested against: the newest served (what the example's go.mod
 * asks for) and the oldest the module supports, with the pins that take the example's go.mod back to it.
 */
export const CONTROLLER_RUNTIME_VERSIONS = [
  { controllerRuntime: 'v0.25.2', pins: [] as string[] },
  {
    controllerRuntime: 'v0.23.3',
    pins: [
      'sigs.k8s.io/controller-runtime@v0.23.3',
      'k8s.io/client-go@v0.35.0',
      'k8s.io/api@v0.35.0',
      'k8s.io/apimachinery@v0.35.0',
    ],
  },
];
