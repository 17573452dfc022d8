// `cluster-probe status`: the fleet's probe state at a glance, read from the Clusters themselves (the Healthy
// condition the reconciler writes, its taint, the probe it runs), as a table, wide table, JSON or YAML, once or
// redrawn on every change (--watch). Exit 1 when a Cluster is failing, so scripts can gate on it. The rows and their
// formatting are pure functions here (unit-tested); the action loads the Kubernetes client only when it runs.
// Also kubectl's plugin `kubectl karmada-probe status` (the executable `kubectl-karmada_probe`; `kubectl-cluster_probe` too).
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  HANDLERS,
  LEGACY_ANNOTATION,
  PROBE_ANNOTATION,
  UNHEALTHY_TAINT_KEY,
  isRecord,
  messageOf,
} from '@karmada-cluster-probe/schema/api';
import type { Cluster } from '@karmada-cluster-probe/schema/api';
import { WITHHELD_REASONS } from '../facts/disruption.js';
import { KARMADA_READY_CONDITION } from '../facts/karmada.js';
import { HEALTHY_CONDITION, INVALID_PROBE_REASON } from '../reconciler/desired-state.js';

export const OUTPUTS = ['table', 'wide', 'json', 'yaml'] as const;
export type Output = (typeof OUTPUTS)[number];

/**
 * What the reconciler holds for a Cluster, from its Healthy condition: the same verdicts as the metric
 * `cluster_verdict` (docs/monitoring.md), and `unprobed` for a Cluster without a probe.
 */
export type Verdict = 'healthy' | 'failing' | 'withheld' | 'error' | 'invalid' | 'pending' | 'unprobed';
export const VERDICTS: readonly Verdict[] = [
  'healthy',
  'failing',
  'withheld',
  'error',
  'invalid',
  'pending',
  'unprobed',
] as const;

export interface StatusRow {
  cluster: string;
  /** The probe's handler and target (`httpGet 10.0.0.7:8080/healthz`), `<none>`, or `<unreadable>`. */
  probe: string;
  /** Where the probe lives: spec.livenessProbe (field), the annotation, the legacy annotation; none. */
  probeSource: 'field' | 'annotation' | 'legacy' | 'none';
  verdict: Verdict;
  healthy?: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  /** The Healthy condition's lastTransitionTime. */
  since?: string;
  /** Effects of our cluster.karmada.io/unhealthy taint (normally one). */
  taints: string[];
  /** Karmada's own Ready condition, for comparison (wide). */
  ready?: string;
}

const WITHHELD = new Set<string>(Object.values(WITHHELD_REASONS));
const MAX_PROBE_TEXT = 60;
const MAX_MESSAGE_TABLE = 80;

/** A member's or a user's text made safe for a terminal: control characters escaped, one line. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    c === '\n' || c === '\t' ? ' ' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function describeProbe(probe: unknown): string {
  if (!isRecord(probe)) return '<unreadable>';
  const handler = HANDLERS.find((h) => probe[h] !== undefined);
  if (handler === undefined) return '<unreadable>';
  const spec = probe[handler];
  if (!isRecord(spec)) return handler;
  const host = typeof spec.host === 'string' ? spec.host : '';
  const port = typeof spec.port === 'number' || typeof spec.port === 'string' ? `:${spec.port}` : '';
  const path = typeof spec.path === 'string' ? spec.path : '';
  const target = `${host}${port}${path}`;
  return printable(truncate(target === '' ? handler : `${handler} ${target}`, MAX_PROBE_TEXT));
}

function probeOf(cluster: Cluster): Pick<StatusRow, 'probe' | 'probeSource'> {
  const field = cluster.spec?.livenessProbe as unknown;
  if (field !== undefined && field !== null) return { probe: describeProbe(field), probeSource: 'field' };
  const annotations = cluster.metadata?.annotations ?? {};
  for (const [key, source] of [
    [PROBE_ANNOTATION, 'annotation'],
    [LEGACY_ANNOTATION, 'legacy'],
  ] as const) {
    const raw = annotations[key];
    if (raw === undefined) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { probe: '<unreadable>', probeSource: source };
    }
    if (source === 'legacy')
      return { probe: isRecord(parsed) ? 'legacy health-checker' : '<unreadable>', probeSource: source };
    return { probe: describeProbe(parsed), probeSource: source };
  }
  return { probe: '<none>', probeSource: 'none' };
}

/** One Cluster's row. */
export function statusRow(cluster: Cluster): StatusRow {
  const conditions = cluster.status?.conditions ?? [];
  const healthy = conditions.find((c) => c.type === HEALTHY_CONDITION);
  const ready = conditions.find((c) => c.type === KARMADA_READY_CONDITION);
  const probe = probeOf(cluster);
  const status = healthy?.status;
  const reason = healthy?.reason;
  let verdict: Verdict;
  if (status === 'True') verdict = 'healthy';
  else if (status === 'False') verdict = 'failing';
  else if (status === 'Unknown')
    verdict =
      reason !== undefined && WITHHELD.has(reason) ? 'withheld' : reason === INVALID_PROBE_REASON ? 'invalid' : 'error';
  else verdict = probe.probeSource === 'none' ? 'unprobed' : 'pending';
  const row: StatusRow = {
    cluster: printable(cluster.metadata?.name ?? ''),
    ...probe,
    verdict,
    taints: (cluster.spec?.taints ?? []).filter((t) => t.key === UNHEALTHY_TAINT_KEY).map((t) => t.effect),
  };
  if (status === 'True' || status === 'False' || status === 'Unknown') row.healthy = status;
  if (reason !== undefined && reason !== '') row.reason = printable(reason);
  if (healthy?.message !== undefined && healthy.message !== '') row.message = printable(healthy.message);
  if (healthy?.lastTransitionTime !== undefined) row.since = healthy.lastTransitionTime;
  if (ready?.status !== undefined) row.ready = ready.status;
  return row;
}

/** Rows sorted by name (as kubectl lists). */
export function statusRows(clusters: readonly Cluster[]): StatusRow[] {
  return clusters.map(statusRow).sort((a, b) => (a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0));
}

/** kubectl's age: 45s, 5m10s, 3h20m, 2d4h, 400d. */
export function age(since: string | undefined, now: number): string {
  if (since === undefined) return '-';
  const t = Date.parse(since);
  if (Number.isNaN(t)) return '-';
  const s = Math.max(0, Math.floor((now - t) / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 8) return h % 24 === 0 ? `${d}d` : `${d}d${h % 24}h`;
  return `${d}d`;
}

/** Exit status: 1 when a Cluster is failing (Healthy=False), else 0. */
export function exitCodeOf(rows: readonly StatusRow[]): 0 | 1 {
  return rows.some((r) => r.verdict === 'failing') ? 1 : 0;
}

export interface RenderOptions {
  output: Output;
  /** ANSI colour for HEALTHY (a terminal, and NO_COLOR unset). */
  color: boolean;
  now: number;
}

const COLOURS: Readonly<Record<string, string>> = { True: '32', False: '31', Unknown: '33' };

/** The rows as the output format asks; a table ends with a newline, as do JSON and YAML. */
export function renderStatus(rows: readonly StatusRow[], options: RenderOptions): string {
  if (options.output === 'json') return `${JSON.stringify(document(rows), null, 2)}\n`;
  if (options.output === 'yaml') throw new Error('yaml is rendered by renderStatusAsync');
  const wide = options.output === 'wide';
  const header = ['CLUSTER', 'PROBE', 'HEALTHY', 'REASON', 'SINCE', 'TAINT', ...(wide ? ['READY', 'SOURCE'] : [])];
  header.push('MESSAGE');
  const cells = rows.map((r) => [
    r.cluster,
    r.probe,
    r.healthy ?? '-',
    r.reason ?? '-',
    age(r.since, options.now),
    r.taints.length > 0 ? r.taints.join(',') : '-',
    ...(wide ? [r.ready ?? '-', r.probeSource] : []),
    wide ? (r.message ?? '') : truncate(r.message ?? '', MAX_MESSAGE_TABLE),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (row: string[], colourHealthy: boolean): string =>
    row
      .map((cell, i) => {
        const padded = i === row.length - 1 ? cell : cell.padEnd(widths[i]!);
        const code = COLOURS[cell];
        return colourHealthy && i === 2 && code !== undefined
          ? `\x1b[${code}m${cell}\x1b[0m${padded.slice(cell.length)}`
          : padded;
      })
      .join('   ')
      .trimEnd();
  return [line(header, false), ...cells.map((c) => line(c, options.color))].join('\n') + '\n';
}

/** The JSON and YAML document: every row, and the count of each verdict. */
export function document(rows: readonly StatusRow[]): {
  clusters: StatusRow[];
  summary: Record<Verdict, number> & { total: number };
} {
  const summary = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const r of rows) summary[r.verdict]++;
  return { clusters: [...rows], summary: { total: rows.length, ...summary } };
}

/** renderStatus, with YAML (the yaml package loaded only for it). */
export async function renderStatusAsync(rows: readonly StatusRow[], options: RenderOptions): Promise<string> {
  if (options.output !== 'yaml') return renderStatus(rows, options);
  const { stringify } = await import('yaml');
  return stringify(document(rows));
}

interface StatusFlags {
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  user?: string;
  output: Output;
  watch: boolean;
  color: 'auto' | 'always' | 'never';
}

function parseOutput(value: string): Output {
  const output = OUTPUTS.find((o) => o === value);
  if (output === undefined) throw new InvalidArgumentError(`must be one of ${OUTPUTS.join(', ')}, not "${value}"`);
  return output;
}

const HELP = `
Columns:
  CLUSTER   the Cluster's name
  PROBE     the probe's handler and target (spec.livenessProbe, or the ${PROBE_ANNOTATION} annotation), <none>
  HEALTHY   the Healthy condition the reconciler writes: True, False (failing, tainted), Unknown (not judged)
  REASON    its reason: LivenessProbeSucceeded, LivenessProbeFailed, LivenessProbeError, ${INVALID_PROBE_REASON},
            or a failure verdict the disruption guard withholds: ${Object.values(WITHHELD_REASONS).join(', ')}
  SINCE     time since the condition last changed
  TAINT     the effect of the ${UNHEALTHY_TAINT_KEY} taint, if the Cluster carries it
  MESSAGE   the probe's own words (truncated; in full with -o wide, which adds Karmada's READY and the probe's SOURCE)

Exit status: 0 no Cluster failing, 1 at least one Cluster Healthy=False, 2 a usage error or an apiserver that cannot
be read. With --watch: the status of the last state drawn when interrupted (Ctrl-C).

As a kubectl plugin: \`kubectl karmada-probe status\` (krew's naming guide: specific, kebab-case; docs/release.md).
kubectl runs an executable named kubectl-karmada_probe on PATH: krew installs one, the npm package installs it
beside cluster-probe (and kubectl-cluster_probe, for \`kubectl cluster-probe\`); elsewhere a symlink of that name
to cluster-probe does.

Examples:
  $ cluster-probe status --kubeconfig ~/.kube/karmada.config
  $ cluster-probe status -o wide --context karmada-apiserver
  $ cluster-probe status --watch                        # redraws on every change; Ctrl-C ends
  $ cluster-probe status -o json | jq '.clusters[] | select(.verdict == "failing") | .cluster'
  $ cluster-probe status >/dev/null || echo "a Cluster is failing"
  $ kubectl cluster-probe status                        # the same, as a kubectl plugin
  $ kubectl karmada-probe status                        # the same, installed with krew`;

export function register(program: Command): void {
  program
    .command('status')
    .description("The fleet's probe state at a glance: every Cluster's probe, Healthy condition and taint.")
    .option(
      '--kubeconfig <file>',
      'kubeconfig of the apiserver serving the Clusters (default: KUBECONFIG, ~/.kube/config)',
    )
    .option('--context <name>', 'the kubeconfig context to use (default: its current-context)')
    .option('--cluster <name>', "the kubeconfig cluster to use (default: the context's)")
    .option('--user <name>', "the kubeconfig user to use (default: the context's)")
    .addOption(new Option('-o, --output <format>', `${OUTPUTS.join('|')}`).default('table').argParser(parseOutput))
    .option('-w, --watch', 'redraw on every change to a Cluster, until interrupted', false)
    .addOption(new Option('--color <when>', 'colour HEALTHY').choices(['auto', 'always', 'never']).default('auto'))
    .addHelpText('after', HELP)
    .action(async (flags: StatusFlags) => {
      process.exitCode = await status(flags);
    });
}

const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';

interface ClusterList {
  metadata?: { resourceVersion?: string };
  items?: Cluster[];
}

async function status(flags: StatusFlags): Promise<number> {
  const { KubeClient, loadKubeConfig, isStatus } = await import('../reconciler/index.js');
  let client: InstanceType<typeof KubeClient>;
  try {
    const kc = loadKubeConfig(flags.kubeconfig);
    if (flags.context !== undefined) {
      if (kc.getContextObject(flags.context) === null)
        throw new Error(`no context "${flags.context}" in the kubeconfig; \`kubectl config get-contexts\` lists them`);
      kc.setCurrentContext(flags.context);
    }
    // kubectl's --cluster and --user: the context's own, one replaced.
    if (flags.cluster !== undefined || flags.user !== undefined) {
      const current = kc.getContextObject(kc.getCurrentContext());
      const cluster = flags.cluster ?? current?.cluster;
      const user = flags.user ?? current?.user;
      if (cluster === undefined || kc.getCluster(cluster) === null)
        throw new Error(`no cluster "${cluster ?? ''}" in the kubeconfig; \`kubectl config get-clusters\` lists them`);
      if (user === undefined || kc.getUser(user) === null)
        throw new Error(`no user "${user ?? ''}" in the kubeconfig; \`kubectl config get-users\` lists them`);
      kc.addContext({ name: 'cluster-probe-status', cluster, user });
      kc.setCurrentContext('cluster-probe-status');
    }
    client = new KubeClient(kc, { userAgent: 'cluster-probe-status' });
  } catch (err) {
    process.stderr.write(`cluster-probe status: kubeconfig: ${messageOf(err)}\n`);
    return 2;
  }
  const out = process.stdout;
  const color = flags.color === 'always' || (flags.color === 'auto' && out.isTTY === true && !process.env.NO_COLOR);
  const draw = async (clusters: Iterable<Cluster>): Promise<{ text: string; code: number }> => {
    const rows = statusRows([...clusters]);
    const text = await renderStatusAsync(rows, { output: flags.output, color, now: Date.now() });
    return { text, code: exitCodeOf(rows) };
  };
  const list = async (): Promise<ClusterList> => client.request<ClusterList>('GET', CLUSTERS);
  try {
    let listed: ClusterList;
    try {
      listed = await list();
    } catch (err) {
      process.stderr.write(`cluster-probe status: cannot list Clusters at ${client.server}: ${messageOf(err)}\n`);
      return 2;
    }
    const byName = new Map((listed.items ?? []).map((c) => [c.metadata?.name ?? '', c]));
    let shown = await draw(byName.values());
    if (!flags.watch) {
      if (byName.size === 0) process.stderr.write('No Clusters found.\n');
      out.write(shown.text);
      return shown.code;
    }
    // --watch: a terminal gets the screen redrawn; a pipe gets each new state appended (JSON one document a line).
    const tty = out.isTTY === true;
    const emit = (text: string): void => {
      if (tty) out.write(`\x1b[H\x1b[2J${text}`);
      else if (flags.output === 'json') out.write(`${JSON.stringify(JSON.parse(text))}\n`);
      else out.write(`${text}\n`);
    };
    emit(shown.text);
    const stop = new AbortController();
    const onSignal = (): void => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let resourceVersion = listed.metadata?.resourceVersion;
    // One redraw at a time, in event order; unchanged text is not drawn again.
    let redraws = Promise.resolve();
    const redraw = async (): Promise<void> => {
      const next = await draw(byName.values());
      if (next.text !== shown.text) emit(next.text);
      shown = next;
    };
    while (!stop.signal.aborted) {
      try {
        await client.watch<Cluster>(
          CLUSTERS,
          { resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 300 },
          (event) => {
            const rv = event.object.metadata?.resourceVersion;
            if (rv !== undefined) resourceVersion = rv;
            if (event.type === 'BOOKMARK') return;
            const name = event.object.metadata?.name ?? '';
            if (event.type === 'DELETED') byName.delete(name);
            else byName.set(name, event.object);
            redraws = redraws.then(redraw);
          },
          stop.signal,
        );
      } catch (err) {
        if (stop.signal.aborted) break;
        if (isStatus(err, 410)) {
          listed = await list();
          byName.clear();
          for (const c of listed.items ?? []) byName.set(c.metadata?.name ?? '', c);
          resourceVersion = listed.metadata?.resourceVersion;
          redraws = redraws.then(redraw);
          continue;
        }
        process.stderr.write(`cluster-probe status: watch: ${messageOf(err)}; retrying\n`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    await redraws;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    return shown.code;
  } finally {
    client.close();
  }
}
