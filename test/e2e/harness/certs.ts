// The e2e control plane's PKI; the code lives in src/dev/control-plane-pki.ts (shared with `cluster-probe dev up`).
export { makeControlPlanePki, type ControlPlanePki, type KeyPair } from '../../../src/dev/control-plane-pki.js';
