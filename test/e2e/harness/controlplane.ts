// The e2e tests' control plane. The code lives in src/dev/controlplane.ts, which `cluster-probe dev up` uses too;
// this module keeps the harness's import path for the tests.
export {
  startControlPlane,
  type ControlPlane,
  type KubectlOptions,
  type KubectlResult,
  type StartOptions,
} from '../../../src/dev/controlplane.js';
