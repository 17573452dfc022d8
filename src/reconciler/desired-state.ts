// What a Cluster should carry for a probe state: the Healthy condition and the cluster.karmada.io/unhealthy taint, and
// the smallest change from what it carries now (undefined when nothing differs, so a steady state writes nothing).
// Pure: no I/O, no clock (the caller hands `now` in). Only the Healthy condition and our taint key are ever touched.
import { UNHEALTHY_TAINT_KEY, type Cluster, type Condition, type Taint } from '@karmada-cluster-probe/schema';
import type { ProbeOutcome, WorkerState } from '@karmada-cluster-probe/probe';
import { HEALTHY_CONDITION } from '../facts/conditions.js';
import { WITHHELD_REASONS } from '../facts/disruption.js';

export { HEALTHY_CONDITION };
export const TAINT_EFFECTS = ['NoSchedule', 'NoExecute', 'none'] as const;
export type TaintEffectOption = (typeof TAINT_EFFECTS)[number];

export const REASONS: Readonly<Record<ProbeOutcome, string>> = Object.freeze({
  success: 'LivenessProbeSucceeded',
  failure: 'LivenessProbeFailed',
  error: 'LivenessProbeError',
});
/** Unknown: a probe that fails validation is never run, so it says nothing about the cluster. */
export const INVALID_PROBE_REASON = 'InvalidLivenessProbe';
/**
 * The Warning Event of an errored probe (the kubelet's "probe errored": the answer could not be read, 3 attempts).
 * Never a condition's reason: an errored probe is not counted and writes no verdict.
 */
export const ERRORED_PROBE_REASON = 'LivenessProbeErrored';
const WITHHELD = new Set<string>(Object.values(WITHHELD_REASONS));
const OUR_REASONS = new Set([...Object.values(REASONS), INVALID_PROBE_REASON, ...WITHHELD]);
const STATUS: Readonly<Record<ProbeOutcome, Condition['status']>> = {
  success: 'True',
  failure: 'False',
  error: 'Unknown',
};

/**
 * keep: no result yet, no opinion (a restart must not rewrite what is there). absent: the Cluster has no probe (or is
 * not ours to probe any more): our condition and taint go. state: the probe's current state and the message of the
 * result that made it so. invalid: the probe fails validation and is never run; the message lists the field errors.
 * withheld: the probe fails, but the disruption guard withholds the verdict (Unknown with the guard's reason).
 */
export type Desired =
  | { kind: 'keep' }
  | { kind: 'absent' }
  | { kind: 'state'; state: ProbeOutcome; message: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'withheld'; reason: string; message: string };

/** Kubernetes' RFC 3339 timestamps carry whole seconds. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The worker state a Cluster's current Healthy condition stands for, so a restarted reconciler resumes from it. */
export function stateFromConditions(conditions: readonly Condition[] | undefined): WorkerState {
  const c = conditions?.find((x) => x.type === HEALTHY_CONDITION);
  // A withheld verdict is no state of the probe: the worker counts afresh (and the guard decides again).
  if (c === undefined || !OUR_REASONS.has(c.reason) || WITHHELD.has(c.reason)) return 'unknown';
  if (c.status === 'True') return 'success';
  if (c.status === 'False') return 'failure';
  return 'error';
}

/**
 * The worker state a Cluster stands for when a worker starts (a restart, leadership or a shard gained): its Healthy
 * condition, unless our taint says otherwise. A failure verdict is written taint first and condition second, a
 * recovery untaint first, so a replica stopped (killed, cut off, fenced) between the two leaves them disagreeing, and
 * the taint is the newer word and the one Karmada acts on. Then the worker starts with no opinion (unknown: nothing
 * is written until its own probes decide), so the next replica neither lifts a taint its predecessor just wrote nor
 * puts back one it just lifted (control-plane faults e2e, defect 3). In condition-only mode (no taint ever) a False
 * condition resumes as unknown too: the probes decide again within failureThreshold periods, and nothing is written
 * until they do.
 */
export function stateFromCluster(cluster: Pick<Cluster, 'spec' | 'status'>): WorkerState {
  const state = stateFromConditions(cluster.status?.conditions);
  const tainted = cluster.spec?.taints?.some((t) => t.key === UNHEALTHY_TAINT_KEY) === true;
  if (state === 'success' && tainted) return 'unknown';
  if (state === 'failure' && !tainted) return 'unknown';
  return state;
}

/** The status and reason a desired state (other than keep and absent) is written with. */
function verdictOf(desired: Extract<Desired, { message: string }>): { status: Condition['status']; reason: string } {
  if (desired.kind === 'invalid') return { status: 'Unknown', reason: INVALID_PROBE_REASON };
  if (desired.kind === 'withheld') return { status: 'Unknown', reason: desired.reason };
  return { status: STATUS[desired.state], reason: REASONS[desired.state] };
}

export function conditionFor(
  state: ProbeOutcome | 'invalid' | { withheld: string },
  message: string,
  lastTransitionTime: string,
): Condition {
  const { status, reason } = verdictOf(
    state === 'invalid'
      ? { kind: 'invalid', message }
      : typeof state === 'object'
        ? { kind: 'withheld', reason: state.withheld, message }
        : { kind: 'state', state, message },
  );
  return {
    type: HEALTHY_CONDITION,
    status,
    reason,
    // The CRD bounds a message at 32768 characters.
    message: message.length > 4096 ? `${message.slice(0, 4093)}...` : message,
    lastTransitionTime,
  };
}

export interface StatusChange {
  from?: Condition;
  to: Condition;
}

export interface StatusPlan {
  conditions: Condition[];
  /** Set when the Healthy condition changes status or reason: the transition an Event tells of. */
  change?: StatusChange;
}

/** The conditions to write, or undefined when the Healthy condition already says what `desired` says. */
export function planConditions(
  current: readonly Condition[] | undefined,
  desired: Desired,
  nowMs: number,
): StatusPlan | undefined {
  const list = current ?? [];
  const index = list.findIndex((c) => c.type === HEALTHY_CONDITION);
  const existing = index >= 0 ? list[index] : undefined;
  if (desired.kind === 'keep') return undefined;
  if (desired.kind === 'absent') {
    if (existing === undefined || !OUR_REASONS.has(existing.reason)) return undefined;
    return { conditions: list.filter((_, i) => i !== index) };
  }
  const { status, reason } = verdictOf(desired);
  const to = conditionFor(
    desired.kind === 'invalid' ? 'invalid' : desired.kind === 'withheld' ? { withheld: desired.reason } : desired.state,
    desired.message,
    existing !== undefined && existing.status === status ? existing.lastTransitionTime : rfc3339(nowMs),
  );
  if (existing !== undefined && existing.status === status && existing.reason === reason) {
    // Status and reason decide; a different message alone (a restart lost it) is not worth a write. Except for an
    // invalid probe: its message is computed from the object (the same after a restart) and tells the user what is
    // left to fix, so an edit that changes the errors updates it, without an Event (no transition).
    if (desired.kind !== 'invalid' || existing.message === to.message) return undefined;
    return { conditions: list.map((c, i) => (i === index ? to : c)) };
  }
  const conditions = index >= 0 ? list.map((c, i) => (i === index ? to : c)) : [...list, to];
  return { conditions, change: { ...(existing !== undefined ? { from: existing } : {}), to } };
}

/**
 * Whether `desired` wants our taint on the Cluster; undefined: leave the taints alone. With effect `none` (condition-
 * only mode) taints are never touched, not even a taint with our key: then it belongs to whoever taints from the
 * condition (Karmada's ClusterTaintPolicy matches taints by key and effect), and removing it would fight them.
 */
export function wantsTaint(desired: Desired, effect: TaintEffectOption): boolean | undefined {
  if (desired.kind === 'keep' || effect === 'none') return undefined;
  return desired.kind === 'state' && desired.state === 'failure';
}

/**
 * The taints to write, or undefined when they are already right. Others' taints stay as they are and where they are;
 * we own the key cluster.karmada.io/unhealthy only (one taint with it, with the configured effect).
 */
export function planTaints(
  current: readonly Taint[] | undefined,
  desired: Desired,
  effect: TaintEffectOption,
  nowMs: number,
): Taint[] | undefined {
  const want = wantsTaint(desired, effect);
  if (want === undefined) return undefined;
  const list = current ?? [];
  const ours = list.filter((t) => t.key === UNHEALTHY_TAINT_KEY);
  if (!want) return ours.length === 0 ? undefined : list.filter((t) => t.key !== UNHEALTHY_TAINT_KEY);
  if (ours.length === 1 && ours[0]!.effect === effect) return undefined;
  const taint: Taint = { key: UNHEALTHY_TAINT_KEY, effect: effect as Taint['effect'], timeAdded: rfc3339(nowMs) };
  const out: Taint[] = [];
  let placed = false;
  for (const t of list) {
    if (t.key !== UNHEALTHY_TAINT_KEY) out.push(t);
    else if (!placed) {
      out.push(taint);
      placed = true;
    }
  }
  if (!placed) out.push(taint);
  return out;
}

/** The taint and condition plan for one Cluster together; both undefined means: write nothing. */
export function planCluster(
  cluster: Cluster,
  desired: Desired,
  effect: TaintEffectOption,
  nowMs: number,
): { status?: StatusPlan; taints?: Taint[] } {
  const status = planConditions(cluster.status?.conditions, desired, nowMs);
  const taints = planTaints(cluster.spec?.taints, desired, effect, nowMs);
  return { ...(status !== undefined ? { status } : {}), ...(taints !== undefined ? { taints } : {}) };
}

/** The Event a status change is told with: Normal on recovery, Warning otherwise. */
export function eventFor(change: StatusChange): { type: 'Normal' | 'Warning'; reason: string; message: string } {
  const to = change.to;
  const verb =
    to.reason === INVALID_PROBE_REASON
      ? 'liveness probe is invalid and is not run'
      : WITHHELD.has(to.reason)
        ? 'liveness probe failed'
        : to.status === 'True'
          ? 'liveness probe succeeded'
          : to.status === 'False'
            ? 'liveness probe failed'
            : 'liveness probe cannot run';
  return {
    type: to.status === 'True' ? 'Normal' : 'Warning',
    reason: to.reason,
    message: `${verb}: ${to.message}`.slice(0, 1024),
  };
}

/**
 * The Event an errored probe is told with, once per probe state (probe-workers.ts): the kubelet records "Liveness
 * probe errored and resulted in failure state: <err>" at every errored run; here it is a Warning that says the
 * result was not counted, and how many attempts were made.
 */
export function erroredEventFor(
  message: string,
  attempts: number | undefined,
): { type: 'Warning'; reason: string; message: string } {
  const tries = attempts === undefined || attempts === 1 ? '1 attempt' : `${attempts} attempts`;
  return {
    type: 'Warning',
    reason: ERRORED_PROBE_REASON,
    message: `liveness probe errored (${tries}) and was not counted; no verdict until it answers: ${message}`.slice(
      0,
      1024,
    ),
  };
}
