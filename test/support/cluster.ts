// One way to write a Karmada Cluster in a test: what a user registers (a Push Cluster with its apiEndpoint), with only
// what the test is about given, and the Healthy condition and our taint as the reconciler writes them. The facts (the
// taint key, the condition type, the reasons) come from the code's own tables, never written here again.
import {
  UNHEALTHY_TAINT_KEY,
  type Cluster,
  type Condition,
  type LivenessProbe,
  type LivenessProbeTiming,
  type Taint,
} from '../../packages/schema/src/schema/index.js';
import { HEALTHY_CONDITION, REASONS } from '../../src/reconciler/desired-state.js';

/** A member's apiEndpoint when the test has no member apiserver (nothing is sent there unless a probe aims at it). */
export const MEMBER_API_ENDPOINT = 'https://127.0.0.1:6443';

export interface ClusterOptions {
  /** Default Push: the Clusters a reconciler probes by default. */
  syncMode?: 'Push' | 'Pull';
  /** Default MEMBER_API_ENDPOINT. */
  apiEndpoint?: string;
  /** spec.livenessProbe. */
  probe?: LivenessProbe;
  taints?: Taint[];
  /** status.conditions. */
  conditions?: Condition[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  region?: string;
  zones?: string[];
  secretRef?: { namespace: string; name: string };
  /** Any other field of the spec (insecureSkipTLSVerification, resourceModels, zone). */
  spec?: Partial<Cluster['spec']>;
  /** Any other field of the metadata (uid, managedFields). */
  metadata?: Partial<NonNullable<Cluster['metadata']>>;
  /** A whole status (a member's, as Karmada writes it); `conditions` go into it. */
  status?: Cluster['status'];
}

/** A Cluster named `name`, with only the fields given (no key is set to undefined). */
export function aCluster(name: string, o: ClusterOptions = {}): Cluster {
  const c: Cluster = {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: {
      ...o.metadata,
      name,
      ...(o.labels !== undefined ? { labels: o.labels } : {}),
      ...(o.annotations !== undefined ? { annotations: o.annotations } : {}),
    },
    spec: {
      syncMode: o.syncMode ?? 'Push',
      apiEndpoint: o.apiEndpoint ?? MEMBER_API_ENDPOINT,
      ...(o.secretRef !== undefined ? { secretRef: o.secretRef } : {}),
      ...(o.region !== undefined ? { region: o.region } : {}),
      ...(o.zones !== undefined ? { zones: o.zones } : {}),
      ...(o.taints !== undefined ? { taints: o.taints } : {}),
      ...o.spec,
      ...(o.probe !== undefined ? { livenessProbe: o.probe } : {}),
    },
  };
  if (o.status !== undefined || o.conditions !== undefined)
    c.status = { ...o.status, ...(o.conditions !== undefined ? { conditions: o.conditions } : {}) };
  return c;
}

/** An httpGet probe of `host:port` at `path` (default host 127.0.0.1: a server of the test's own). */
export function httpProbe(
  port: number,
  path: string,
  timing: LivenessProbeTiming = {},
  host = '127.0.0.1',
): LivenessProbe {
  return { httpGet: { host, port, path }, ...timing };
}

const MESSAGES: Readonly<Record<Condition['status'], string>> = {
  True: 'HTTP probe succeeded with statuscode: 200',
  False: 'HTTP probe failed with statuscode: 500',
  Unknown: 'the probe could not be run',
};
const REASON_OF: Readonly<Record<Condition['status'], string>> = {
  True: REASONS.success,
  False: REASONS.failure,
  Unknown: REASONS.error,
};

/** The Healthy condition as the reconciler writes it for `status` (its reason and a message), at 2026-01-01. */
export function healthyCondition(status: Condition['status'], o: Partial<Condition> = {}): Condition {
  return {
    type: HEALTHY_CONDITION,
    status,
    reason: REASON_OF[status],
    message: MESSAGES[status],
    lastTransitionTime: '2026-01-01T00:00:00Z',
    ...o,
  };
}

/** Our taint, as the reconciler writes it. */
export function unhealthyTaint(effect: Taint['effect'] = 'NoSchedule', timeAdded = '2026-01-01T00:00:00Z'): Taint {
  return { key: UNHEALTHY_TAINT_KEY, effect, timeAdded };
}

/** The Healthy condition a Cluster carries. */
export function healthyOf(c: Cluster | undefined): Condition | undefined {
  return c?.status?.conditions?.find((x) => x.type === HEALTHY_CONDITION);
}

/** Whether a Cluster carries our taint. */
export function isTainted(c: Cluster | undefined): boolean {
  return (c?.spec.taints ?? []).some((t) => t.key === UNHEALTHY_TAINT_KEY);
}

export { UNHEALTHY_TAINT_KEY };
