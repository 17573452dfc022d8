// The engine's version and the User-Agent it sends, named for this project as the kubelet's `kube-probe/<version>`.
// Kept in step with package.json by a unit test. Depends on nothing.

export const PROBE_VERSION = '0.1.0';
export const USER_AGENT = `karmada-cluster-probe/${PROBE_VERSION}`;
