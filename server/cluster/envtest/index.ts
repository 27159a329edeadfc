// Front door of the envtest harness: a real etcd + kube-apiserver built by scripts/setup-envtest.sh.
export { defaultAssetsRoot, EnvtestAssetsError, findAssets, newestCachedAssetsDir } from './assets';
export type { EnvtestAssets, FindAssetsOptions } from './assets';
export { ControlPlane, ControlPlaneStartError } from './control-plane';
export type { ControlPlaneInfo, ControlPlaneOptions, FlagOverrides } from './control-plane';
export { renderKubeconfig } from './kubeconfig-file';
export { httpCall } from './readiness';
