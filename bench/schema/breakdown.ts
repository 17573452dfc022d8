// bench/schema --breakdown: where validateCluster's time goes. Each stage of validateCluster is called on its own, on
// the very values validateCluster gives it for the fixture, in interleaved rounds (medians), and reported in ns per
// call after subtracting an empty call, with its share of validateCluster's own time. The stages overlap on purpose:
// `clusterRules` is the sum of the rows indented under it plus its glue, and so on; "glue" rows are what is left.
// It imports the schema library's internal modules, so it follows their names: when src/schema is refactored and
// an import fails, only this mode breaks, not the ratio that index.ts prints.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type AjvValidators = typeof import('../../packages/schema/src/schema/ajv-validators.js');
type ClusterRules = typeof import('../../packages/schema/src/schema/cluster-rules.js');
type ResourceModels = typeof import('../../packages/schema/src/schema/resource-models.js');
type ProbeRules = typeof import('../../packages/schema/src/schema/probe-rules.js');
type AddressRanges = typeof import('../../packages/schema/src/schema/address-ranges.js');
type K8sNames = typeof import('../../packages/schema/src/schema/k8s-names.js');
type FieldErrors = typeof import('../../packages/schema/src/schema/field-error.js');
type Memo = typeof import('../../packages/schema/src/schema/memo.js');
type Validate = typeof import('../../packages/schema/src/schema/validate.js');

export interface Stage {
  name: string;
  /** Indentation in the table: 0 a stage of validateCluster, 1 a part of the stage above. */
  depth: number;
  fn: () => unknown;
}

export interface BreakdownRow {
  name: string;
  depth: number;
  ns: number;
  /** Share of validateCluster's ns per call. */
  share: number;
}

/** Results are kept here, so that no call can be optimised away. */
export const sink: { last: unknown } = { last: undefined };

/**
 * Nanoseconds now: `wall` (monotonic) or `cpu` (this process's user + system CPU time, 1 us resolution), which leaves
 * out the time the process waits for a core while other work runs on the machine.
 */
export type Clock = 'wall' | 'cpu';
export function clockNs(clock: Clock): number {
  if (clock === 'wall') return Number(process.hrtime.bigint());
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

/** Calls `fn` in batches for `ms` of the clock; the ns per call. */
export function nsPerCall(fn: () => unknown, ms: number, clock: Clock = 'cpu', batch = 500): number {
  let n = 0;
  const start = clockNs(clock);
  const end = start + ms * 1e6;
  let now = start;
  while (now < end) {
    for (let i = 0; i < batch; i++) sink.last = fn();
    n += batch;
    now = clockNs(clock);
  }
  return (now - start) / n;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Times every stage in `rounds` interleaved rounds of `sliceMs` each; ns per call net of an empty call. */
export function timeStages(
  stages: Stage[],
  rounds: number,
  sliceMs: number,
  clock: Clock = 'cpu',
): Map<string, number> {
  const empty: Stage = { name: '(empty call)', depth: 0, fn: () => undefined };
  const all = [empty, ...stages];
  for (const s of all) nsPerCall(s.fn, 50, clock); // warm-up, so the JIT has settled
  const samples = new Map<string, number[]>(all.map((s) => [s.name, []]));
  for (let r = 0; r < rounds; r++) {
    // A rotating order, so that load from elsewhere on the machine falls on every stage alike.
    for (let k = 0; k < all.length; k++) {
      const s = all[(k + r) % all.length] as Stage;
      samples.get(s.name)?.push(nsPerCall(s.fn, sliceMs, clock));
    }
  }
  const base = median(samples.get(empty.name) ?? []);
  const out = new Map<string, number>();
  for (const s of stages) out.set(s.name, Math.max(0, median(samples.get(s.name) ?? []) - base));
  out.set(empty.name, base);
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The schema library's modules of the tree at `root` (a checkout or a scratch copy; default this one). */
export async function loadSchemaModules(root?: string) {
  const dir =
    root === undefined
      ? new URL('../../packages/schema/src/schema/', import.meta.url)
      : pathToFileURL(path.join(path.resolve(root), 'packages/schema/src/schema/'));
  const load = async <T>(file: string): Promise<T> => (await import(new URL(file, dir).href)) as T;
  return {
    ajv: await load<AjvValidators>('ajv-validators.ts'),
    cluster: await load<ClusterRules>('cluster-rules.ts'),
    // resource-models.ts was split out of cluster-rules.ts; an older tree (--compare) has them in the one file.
    models: await load<ResourceModels>('resource-models.ts').catch(() => load<ResourceModels>('cluster-rules.ts')),
    probe: await load<ProbeRules>('probe-rules.ts'),
    address: await load<AddressRanges>('address-ranges.ts'),
    names: await load<K8sNames>('k8s-names.ts'),
    fieldError: await load<FieldErrors>('field-error.ts'),
    memo: await load<Memo>('memo.ts'),
    validate: await load<Validate>('validate.ts'),
  };
}

/** The stages of validateCluster for `obj`, as validate.ts runs them (a Cluster with no annotations). */
export function stagesFor(m: Awaited<ReturnType<typeof loadSchemaModules>>, obj: Record<string, unknown>): Stage[] {
  const { FieldPath } = m.fieldError;
  const ROOT = FieldPath.root('');
  const SPEC = FieldPath.root('spec');
  const spec = isObject(obj.spec) ? obj.spec : {};
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const raw = m.ajv.rawValidators.cluster;
  const denyList = m.address.denyListFor(undefined);
  const parseEndpoint = m.memo.memoize((e: string) => m.cluster.parseApiEndpoint(e, SPEC.child('apiEndpoint')));
  const apiEndpointHost =
    typeof spec.apiEndpoint === 'string' ? parseEndpoint(spec.apiEndpoint).host : (undefined as string | undefined);
  const ctx = { apiEndpointHost, syncMode: spec.syncMode, hasSecretRef: isObject(spec.secretRef), denyList };
  const probe = spec.livenessProbe;
  const handler = isObject(probe)
    ? (['httpGet', 'tcpSocket', 'grpc', 'apiServer'].find((h) => isObject(probe[h])) ?? '')
    : '';
  const action = isObject(probe) && isObject(probe[handler]) ? (probe[handler] as Record<string, unknown>) : {};
  const target = typeof action.host === 'string' ? action.host : apiEndpointHost;
  const labels = [spec.provider, spec.region, ...(Array.isArray(spec.zones) ? spec.zones : [spec.zone])].filter(
    (v): v is string => typeof v === 'string',
  );
  const stages: Stage[] = [
    { name: 'validateCluster (total)', depth: 0, fn: () => m.validate.validateCluster(obj) },
    { name: 'ajv: compiled validate (the raw baseline)', depth: 0, fn: () => raw(obj) },
    {
      name: 'ajv: schemaErrors (validate, no errors to translate)',
      depth: 0,
      fn: () => m.ajv.schemaErrors(raw, obj, ROOT),
    },
    { name: 'Karmada rules: clusterRules', depth: 0, fn: () => m.cluster.clusterRules(obj) },
    {
      name: 'metadata.name (memo hit)',
      depth: 1,
      fn: () => m.cluster.clusterNameErrors(meta.name, FieldPath.root('metadata').child('name')),
    },
    {
      name: 'spec.apiEndpoint (memo hit)',
      depth: 1,
      fn: () => (typeof spec.apiEndpoint === 'string' ? parseEndpoint(spec.apiEndpoint) : undefined),
    },
    {
      name: `provider, region, zones: ${labels.length} label values (memo hits)`,
      depth: 1,
      fn: () => {
        let n = 0;
        for (const v of labels) n += m.names.isValidLabelValue(v).length;
        return n;
      },
    },
    {
      name: 'taints',
      depth: 1,
      fn: () => (Array.isArray(spec.taints) ? m.cluster.taintErrors(spec.taints, SPEC.child('taints'), []) : undefined),
    },
    {
      name: 'resourceModels (allocation-free pass)',
      depth: 1,
      fn: () =>
        Array.isArray(spec.resourceModels)
          ? m.models.resourceModelErrors(spec.resourceModels, SPEC.child('resourceModels'))
          : undefined,
    },
    {
      name: `probe rules: probeRules (${handler || 'no probe'})`,
      depth: 0,
      fn: () => m.probe.probeRules(probe, SPEC.child('livenessProbe'), ctx),
    },
  ];
  if (target !== undefined)
    stages.push({
      name: `address policy: deniedTargetError(${JSON.stringify(target)}) (verdict cache hit)`,
      depth: 1,
      fn: () => m.address.deniedTargetError(target, SPEC.child('apiEndpoint'), denyList),
    });
  if (typeof action.port === 'string') {
    const port = action.port;
    stages.push({
      name: `port name ${JSON.stringify(port)} (memo hit)`,
      depth: 1,
      fn: () => m.names.isValidPortName(port),
    });
  }
  if (typeof action.host === 'string') {
    const host = action.host;
    stages.push({ name: 'host name (memo hit)', depth: 1, fn: () => m.names.isValidHost(host) });
  }
  stages.push({ name: 'deny list: denyListFor(undefined)', depth: 0, fn: () => m.address.denyListFor(undefined) });
  return stages;
}

/** The table rows: every stage with its share of validateCluster, plus the glue that no stage accounts for. */
export function rowsOf(stages: Stage[], ns: Map<string, number>): BreakdownRow[] {
  const total = ns.get('validateCluster (total)') ?? NaN;
  const rows: BreakdownRow[] = [];
  const at = (name: string): number => ns.get(name) ?? 0;
  const top = stages.filter((s) => s.depth === 0 && s.name !== 'validateCluster (total)');
  for (let i = 0; i < stages.length; i++) {
    const s = stages[i] as Stage;
    rows.push({ name: s.name, depth: s.depth, ns: at(s.name), share: at(s.name) / total });
    const next = stages[i + 1];
    // After the last part of a stage: what the stage costs beyond its parts.
    if (s.depth === 1 && (next === undefined || next.depth === 0)) {
      let j = i;
      while (j > 0 && (stages[j] as Stage).depth === 1) j--;
      const parent = stages[j] as Stage;
      const parts = stages.slice(j + 1, i + 1).reduce((sum, p) => sum + at(p.name), 0);
      const glue = at(parent.name) - parts;
      rows.push({ name: 'glue (paths, result objects, other checks)', depth: 1, ns: glue, share: glue / total });
    }
  }
  // schemaErrors includes the raw validate: count it once.
  const accounted = top
    .filter((s) => s.name !== 'ajv: compiled validate (the raw baseline)')
    .reduce((sum, s) => sum + at(s.name), 0);
  const rest = total - accounted;
  rows.push({
    name: 'validateCluster glue (options, apiVersion/kind, ctx, merging lists, result)',
    depth: 0,
    ns: rest,
    share: rest / total,
  });
  return rows;
}

export function printRows(title: string, rows: BreakdownRow[], emptyCallNs: number): void {
  console.log(`\n${title}`);
  console.log(`| Stage | ns per call | share of validateCluster |`);
  console.log(`| --- | ---: | ---: |`);
  for (const r of rows) {
    const name = r.depth > 0 ? `&nbsp;&nbsp;${r.name}` : r.name;
    console.log(`| ${name} | ${r.ns.toFixed(0)} | ${(100 * r.share).toFixed(0)}% |`);
  }
  console.log(`(an empty call, ${emptyCallNs.toFixed(1)} ns, is subtracted from every row)`);
}
