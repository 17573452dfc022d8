// What the detection bench (bench/detection) and its e2e (test/e2e/karmada-detection.test.ts) observe on a Karmada
// playground, side by side: every state of every Cluster (our Healthy condition and taint, Karmada's Ready condition
// and its cluster.karmada.io/not-ready and /unreachable taints) with the time it was seen, from a watch plus a poll; and
// where karmada-scheduler places a new workload, one new PropagationPolicy + Deployment every few seconds until one
// lands on the healthy member alone. Knows nothing of the faults themselves (src/dev/member-faults.ts).
import { PROBE_ANNOTATION, UNHEALTHY_TAINT_KEY } from '../../../packages/schema/src/api/index.js';
import type { KubeApi } from '../../../src/kube/index.js';
import type { Cluster } from '../../../packages/schema/src/schema/index.js';
import { sampleWorkload } from '../../../src/dev/karmada-playground.js';
import type { KarmadaControlPlane } from '../../../src/dev/karmada.js';

export { PROBE_ANNOTATION, UNHEALTHY_TAINT_KEY };
const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
const BINDINGS = '/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings';
/** The taints Karmada's cluster controller writes from the Ready condition (taintClusterByCondition). */
export const KARMADA_TAINT_KEYS = ['cluster.karmada.io/not-ready', 'cluster.karmada.io/unreachable'] as const;

export interface ClusterState {
  /** When this state was seen (ms since the epoch). */
  at: number;
  /** Our Healthy condition's status. */
  healthy: string | undefined;
  ourTaint: boolean;
  /** Karmada's Ready condition's status. */
  ready: string | undefined;
  /** Karmada's own taint keys on the Cluster. */
  karmadaTaints: string[];
  /** Karmada's status.nodeSummary.readyNum (it omits 0), undefined before Karmada collected a summary. */
  readyNodes: number | undefined;
}

export function stateOf(c: Cluster, at: number): ClusterState {
  const condition = (type: string) => c.status?.conditions?.find((x) => x.type === type)?.status;
  const taints = c.spec?.taints ?? [];
  const summary = c.status?.nodeSummary as { readyNum?: number } | undefined;
  return {
    at,
    healthy: condition('Healthy'),
    ourTaint: taints.some((t) => t.key === UNHEALTHY_TAINT_KEY),
    ready: condition('Ready'),
    karmadaTaints: taints.map((t) => t.key).filter((k) => (KARMADA_TAINT_KEYS as readonly string[]).includes(k)),
    readyNodes: summary === undefined ? undefined : Number(summary.readyNum ?? 0),
  };
}

/** The facts a detection table has a column for, each a predicate on one state of the failing member. */
export const FACTS = {
  ourHealthyFalse: (s: ClusterState) => s.healthy === 'False',
  ourTaint: (s: ClusterState) => s.ourTaint,
  karmadaNotReady: (s: ClusterState) => s.ready !== undefined && s.ready !== 'True',
  karmadaTaint: (s: ClusterState) => s.karmadaTaints.length > 0,
} as const;
export type Fact = keyof typeof FACTS;

/** The member is healthy for both: our Healthy=True and no taint of ours, Karmada's Ready=True and no taint of its. */
export const bothHealthy = (s: ClusterState | undefined): boolean =>
  s !== undefined && s.healthy === 'True' && !s.ourTaint && s.ready === 'True' && s.karmadaTaints.length === 0;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Every state of every Cluster, as a watch (and a poll every `pollMs`, for what a reconnecting watch could miss) saw it. */
export class ClusterTimeline {
  private readonly states = new Map<string, ClusterState[]>();
  private readonly stopped = new AbortController();
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly api: KubeApi,
    private readonly pollMs = 500,
  ) {}

  private record(c: Cluster): void {
    const name = c.metadata?.name;
    if (name === undefined) return;
    const list = this.states.get(name) ?? [];
    list.push(stateOf(c, Date.now()));
    this.states.set(name, list);
  }

  start(): void {
    const signal = this.stopped.signal;
    this.loops.push(
      (async () => {
        while (!signal.aborted) {
          try {
            await this.api.watch<Cluster>(
              CLUSTERS,
              { allowWatchBookmarks: false },
              (e) => {
                if (e.type !== 'ERROR' && e.type !== 'BOOKMARK') this.record(e.object);
              },
              signal,
            );
          } catch {
            if (!signal.aborted) await sleep(200);
          }
        }
      })(),
      (async () => {
        while (!signal.aborted) {
          try {
            const list = await this.api.request<{ items: Cluster[] }>('GET', CLUSTERS, { timeoutMs: 5_000 });
            for (const c of list.items) this.record(c);
          } catch {
            // the next round
          }
          await sleep(this.pollMs);
        }
      })(),
    );
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    await Promise.allSettled(this.loops);
  }

  latest(name: string): ClusterState | undefined {
    return this.states.get(name)?.at(-1);
  }

  /** Every state of `name` seen at or after `since`. */
  since(name: string, since: number): ClusterState[] {
    return (this.states.get(name) ?? []).filter((s) => s.at >= since);
  }

  /** The first time at or after `since` a state of `name` matched `fact`. */
  first(name: string, since: number, fact: (s: ClusterState) => boolean): number | undefined {
    return this.since(name, since).find(fact)?.at;
  }

  /** Waits until a state of `name` seen at or after `since` matches; undefined if none did by `deadline`. */
  async waitFirst(
    name: string,
    since: number,
    fact: (s: ClusterState) => boolean,
    deadline: number,
  ): Promise<number | undefined> {
    for (;;) {
      const at = this.first(name, since, fact);
      if (at !== undefined || Date.now() > deadline) return at;
      await sleep(100);
    }
  }

  /** Waits until the latest state of every name matches; throws after `timeoutMs` naming the last states. */
  async waitLatest(names: string[], fact: (s: ClusterState | undefined) => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!names.every((n) => fact(this.latest(n)))) {
      if (Date.now() > deadline) {
        const last = names.map((n) => `${n}: ${JSON.stringify(this.latest(n))}`).join('; ');
        throw new Error(`timed out after ${timeoutMs} ms waiting for the Clusters' states (last: ${last})`);
      }
      await sleep(200);
    }
  }
}

interface Binding {
  spec?: { clusters?: { name: string }[] };
}

export interface Placement {
  /** The workload whose binding listed the healthy member alone. */
  workload: string;
  /** When it was created, and when its binding was seen scheduled (ms since the epoch). */
  createdAt: number;
  seenAt: number;
  /** How many workloads were created up to and including it. */
  tried: number;
}

/**
 * Creates a workload that may go to every member (sampleWorkload: a PropagationPolicy naming them all, Duplicated) every
 * `everyMs` until karmada-scheduler places one on `healthy` alone; undefined if none is by `deadline`. Workloads are
 * created through kubectl (the webhook defaults the policy, as for a user) and their ResourceBindings read directly.
 */
export async function firstPlacementOnly(
  karmada: KarmadaControlPlane,
  api: KubeApi,
  options: { healthy: string; prefix: string; deadline: number; everyMs: number; perTryMs?: number },
): Promise<Placement | undefined> {
  const members = karmada.members.map((m) => m.name);
  for (let tried = 1; Date.now() <= options.deadline; tried++) {
    const workload = `${options.prefix}-${tried}`;
    const createdAt = Date.now();
    const out = await karmada.kubectl(['apply', '-f', '-'], {
      input: sampleWorkload(workload, members, 'registry.invalid/web:1'),
    });
    if (out.code !== 0) throw new Error(`kubectl apply of workload ${workload} failed: ${out.stderr.trim()}`);
    const tryUntil = Math.min(options.deadline, createdAt + (options.perTryMs ?? 15_000));
    for (;;) {
      let clusters: string[] | undefined;
      try {
        const b = await api.request<Binding>('GET', `${BINDINGS}/${workload}-deployment`, { timeoutMs: 5_000 });
        clusters = b.spec?.clusters?.map((c) => c.name).sort();
      } catch {
        // not created yet
      }
      if (clusters !== undefined && clusters.length > 0) {
        if (clusters.length === 1 && clusters[0] === options.healthy)
          return { workload, createdAt, seenAt: Date.now(), tried };
        break;
      }
      if (Date.now() > tryUntil) break;
      await sleep(100);
    }
    const next = createdAt + options.everyMs - Date.now();
    if (next > 0) await sleep(Math.min(next, Math.max(0, options.deadline - Date.now())));
  }
  return undefined;
}
