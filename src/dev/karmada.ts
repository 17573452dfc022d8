// A real Karmada control plane on this machine, built from Karmada's source by scripts/build-karmada.mjs: etcd and
// karmada-apiserver (a kube-apiserver with the aggregation layer), karmada-aggregated-apiserver behind the APIService
// v1alpha1.cluster.karmada.io, Karmada's CRDs, karmada-webhook, -controller-manager and -scheduler, and N member
// kube-apiservers joined as Push Clusters the way `karmadactl join` does (a Secret with token and caBundle), each with
// Node objects whose Ready condition a caller flips. Used by the Karmada e2e suite and `cluster-probe dev up --karmada`.
// Knows nothing of the webhook or the reconciler of this project.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { makeCa, signClientPair, signServingPair } from './control-plane-pki.js';
import { startControlPlane, type ControlPlane, type KubectlResult } from './controlplane.js';
import { freePort, httpGet, httpsGet, waitFor } from './loopback.js';
import { alive, cmdline } from './member-faults.js';
import { ProcessGroup } from './process-group.js';
import { definedFields, PROBE_ANNOTATION } from '@karmada-cluster-probe/schema/api';

/** The group of Clusters and the APIService that serves it on a real Karmada. */
export const KARMADA_CLUSTER_APISERVICE = 'v1alpha1.cluster.karmada.io';
/** Where `karmadactl join` puts member credentials. */
export const MEMBER_SECRET_NAMESPACE = 'karmada-cluster';
export const KARMADA_SYSTEM_NAMESPACE = 'karmada-system';

export interface KarmadaMember {
  name: string;
  controlPlane: ControlPlane;
  /** The static token Karmada (and our probe) use for this member; group system:masters. */
  token: string;
  /** The Node objects created on it (Ready unless flipped). */
  nodes: string[];
}

export interface KarmadaControlPlane {
  /** karmada-apiserver: the control plane the Clusters, policies and bindings live in. */
  host: ControlPlane;
  members: KarmadaMember[];
  binDir: string;
  /** Whether karmada-aggregated-apiserver runs with the admission chain (the patched build). */
  admission: boolean;
  /** Ports of the Karmada components. */
  ports: { aggregatedApiserver: number; webhook: number; controllerManagerHealth: number; schedulerHealth: number };
  /** Sets the Ready condition of every Node of a member (or the named ones). */
  setNodesReady(member: string, ready: boolean, nodes?: string[]): Promise<void>;
  /** kubectl against karmada-apiserver. */
  kubectl(args: string[], options?: { input?: string; timeoutMs?: number }): Promise<KubectlResult>;
  /**
   * Stops one component of the control plane (SIGTERM to its process group, SIGKILL after `graceMs`, default 10 s;
   * `signal: 'SIGKILL'` for a crash) and returns `start`, which runs it again with the same command line, ports and data
   * (etcd keeps its data directory) and resolves once Clusters can be read through karmada-apiserver again. `start`
   * takes flags to append (later flags win: e.g. a smaller watch cache for the aggregated apiserver).
   */
  stopComponent(component: KarmadaComponent, options?: StopComponentOptions): Promise<StoppedComponent>;
  /** stopComponent, `downMs` of nothing, then start: when it was signalled and when it was back (epoch ms). */
  restartComponent(
    component: KarmadaComponent,
    options?: StopComponentOptions & { downMs?: number; extraArgs?: string[] },
  ): Promise<{ downAt: number; backAt: number }>;
  /**
   * Compacts etcd's history up to its current revision (as `etcdctl compact --physical`, through etcd's JSON gateway):
   * a watch or list from an older resourceVersion then gets 410 Gone. Returns the revision compacted to.
   */
  compactEtcd(): Promise<number>;
  stop(): Promise<void>;
}

/** A process of the Karmada control plane that stopComponent can stop and start again. */
export type KarmadaComponent = 'etcd' | 'karmada-apiserver' | 'karmada-aggregated-apiserver';
export const KARMADA_COMPONENTS: readonly KarmadaComponent[] = [
  'etcd',
  'karmada-apiserver',
  'karmada-aggregated-apiserver',
];

export interface StopComponentOptions {
  /** SIGTERM (an orderly stop, the default) or SIGKILL (a crash). */
  signal?: 'SIGTERM' | 'SIGKILL';
  graceMs?: number;
}

export interface StoppedComponent {
  /**
   * When it was signalled (epoch ms): it stops serving then, while it may take seconds more to exit (the aggregated
   * apiserver drains its watches for ~8 s after SIGTERM).
   */
  signalledAt: number;
  /** When the process was gone (epoch ms). */
  stoppedAt: number;
  /** Starts it again; resolves with when Clusters could be read again (epoch ms). */
  start(extraArgs?: string[]): Promise<number>;
}

export interface KarmadaStartOptions {
  /** Directory holding kube-apiserver and etcd; default env CLUSTER_PROBE_CONTROLPLANE_BIN. */
  controlPlaneBinDir?: string;
  /** Directory holding the Karmada binaries and artifacts; default env CLUSTER_PROBE_KARMADA_BIN. */
  karmadaBinDir?: string;
  /** Number of member clusters; default 2. */
  members?: number;
  /** Nodes per member; default 2. */
  nodesPerMember?: number;
  /** Run the patched karmada-aggregated-apiserver with the admission chain; default false (stock Karmada). */
  admission?: boolean;
  /** karmada-controller-manager --cluster-status-update-frequency, seconds; default 10 (Karmada's default). */
  clusterStatusUpdateSeconds?: number;
  /**
   * The address karmada-apiserver and the members' kube-apiservers bind and are reached at (Cluster apiEndpoints),
   * in their certificates; default 127.0.0.1. A bridge address makes them reachable from Pods of a local node.
   */
  address?: string;
  /** Extra karmada-controller-manager flags (e.g. --feature-gates=Failover=true for ClusterTaintPolicy). */
  extraControllerManagerArgs?: string[];
  log?: (line: string) => void;
  /** Prefix of the temporary directories; default `karmada`. */
  name?: string;
  parentDir?: string;
  keep?: boolean;
  handleSignals?: boolean;
  startTimeoutMs?: number;
}

const defaultLog = (line: string): void => {
  process.stderr.write(`karmada control plane: ${line}\n`);
};

const KARMADA_BINARIES = [
  'karmada-aggregated-apiserver',
  'karmada-aggregated-apiserver-admission',
  'karmada-controller-manager',
  'karmada-scheduler',
  'karmada-webhook',
] as const;

export function resolveKarmadaBinDir(dir: string | undefined): string {
  const resolved = dir ?? process.env.CLUSTER_PROBE_KARMADA_BIN;
  if (!resolved) {
    throw new Error(
      'CLUSTER_PROBE_KARMADA_BIN is not set: run the e2e tests with `npm run test:e2e`, or set it to the directory ' +
        'that `node scripts/build-karmada.mjs` prints',
    );
  }
  for (const binary of KARMADA_BINARIES) {
    if (!existsSync(join(resolved, binary))) {
      throw new Error(`${join(resolved, binary)} does not exist: run \`node scripts/build-karmada.mjs\` to build it`);
    }
  }
  if (!existsSync(join(resolved, 'artifacts', 'crds'))) {
    throw new Error(`${join(resolved, 'artifacts', 'crds')} is missing: run \`node scripts/build-karmada.mjs\` again`);
  }
  return resolved;
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...yamlFiles(path));
    else if (/\.ya?ml$/.test(entry)) out.push(path);
  }
  return out;
}

async function mustKubectl(cp: ControlPlane, args: string[], input?: string, timeoutMs?: number): Promise<string> {
  const result = await cp.kubectl(args, definedFields({ input, timeoutMs }));
  if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

const b64 = (text: string): string => Buffer.from(text).toString('base64');

/**
 * Puts a probe on a Cluster where Karmada keeps it (the annotation PROBE_ANNOTATION: the aggregated apiserver drops an
 * unknown spec field), through kubectl against karmada-apiserver; a refusal is an error naming the Cluster.
 */
export async function annotateProbe(
  kubectl: (args: string[]) => Promise<KubectlResult>,
  cluster: string,
  probe: unknown,
): Promise<void> {
  const out = await kubectl([
    'annotate',
    '--overwrite',
    'cluster',
    cluster,
    `${PROBE_ANNOTATION}=${JSON.stringify(probe)}`,
  ]);
  if (out.code !== 0) throw new Error(`annotating Cluster ${cluster} with its probe: ${out.stderr.trim()}`);
}

/** Several objects as one JSON document kubectl applies (JSON input is one document: no `---` between objects). */
export function asList(items: readonly unknown[]): string {
  return `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2)}\n`;
}

function nodeManifest(name: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' } },
    spec: {},
  });
}

/** The status patch that sets a Node Ready or NotReady (as a kubelet would report it). */
export function nodeStatusPatch(ready: boolean): string {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return JSON.stringify({
    status: {
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      conditions: [
        {
          type: 'Ready',
          status: ready ? 'True' : 'False',
          reason: ready ? 'KubeletReady' : 'KubeletNotReady',
          message: ready ? 'kubelet is posting ready status' : 'container runtime is down (set by the test harness)',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
    },
  });
}

/** Sets the Ready condition of `nodes` through the status subresource, as a kubelet would report it. */
export async function setNodesReady(
  kubectl: (args: string[]) => Promise<KubectlResult>,
  nodes: readonly string[],
  ready: boolean,
  onEach: (node: string) => void = () => undefined,
): Promise<void> {
  for (const node of nodes) {
    const args = ['patch', 'node', node, '--subresource=status', '--type=merge', '-p', nodeStatusPatch(ready)];
    const out = await kubectl(args);
    if (out.code !== 0) throw new Error(`kubectl ${args.slice(0, 3).join(' ')} failed: ${out.stderr.trim()}`);
    onEach(node);
  }
}

/** What every control plane of the playground (the host and each member) takes from the playground's options. */
function controlPlaneOptions(options: KarmadaStartOptions) {
  return definedFields({
    binDir: options.controlPlaneBinDir,
    address: options.address,
    parentDir: options.parentDir,
    keep: options.keep,
    handleSignals: options.handleSignals,
    startTimeoutMs: options.startTimeoutMs,
  });
}

async function startMember(
  index: number,
  options: KarmadaStartOptions,
  dir: string,
  log: (line: string) => void,
): Promise<KarmadaMember> {
  const name = `member${index}`;
  const token = `member-token-${index}-${Math.random().toString(36).slice(2, 12)}`;
  const tokenFile = join(dir, `${name}.tokens`);
  // kube-apiserver's static token file: token,user,uid,"group1,group2"
  writeFileSync(tokenFile, `${token},karmada,karmada-uid-${index},"system:masters"\n`, { mode: 0o600 });
  const controlPlane = await startControlPlane({
    name,
    extraApiServerArgs: [`--token-auth-file=${tokenFile}`],
    log: (line) => log(`${name}: ${line}`),
    ...controlPlaneOptions(options),
  });
  const nodes: string[] = [];
  for (let n = 1; n <= (options.nodesPerMember ?? 2); n++) nodes.push(`${name}-node-${n}`);
  for (const node of nodes) await mustKubectl(controlPlane, ['create', '-f', '-'], nodeManifest(node));
  await setNodesReady((args) => controlPlane.kubectl(args), nodes, true);
  return { name, controlPlane, token, nodes };
}

/** The Secret and Cluster `karmadactl join` would write for a Push member. */
export function joinManifests(member: { name: string; url: string; token: string; caPem: string }): string {
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: member.name, namespace: MEMBER_SECRET_NAMESPACE },
    type: 'Opaque',
    data: { token: b64(member.token), caBundle: b64(member.caPem) },
  };
  const cluster = {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: member.name },
    spec: {
      syncMode: 'Push',
      apiEndpoint: member.url,
      secretRef: { namespace: MEMBER_SECRET_NAMESPACE, name: member.name },
    },
  };
  return asList([secret, cluster]);
}

/**
 * Compacts etcd's history up to its current revision, physically (as `etcdctl compact --physical`), through etcd's
 * JSON gateway on the client port (no etcdctl needed). A watch or list from an older resourceVersion then gets 410.
 */
export async function compactEtcd(etcdClientPort: number): Promise<number> {
  const call = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`http://127.0.0.1:${etcdClientPort}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`etcd ${path}: ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  // Any range answer carries the store's current revision in its header.
  const range = await call('/v3/kv/range', { key: b64('/'), limit: 1 });
  const revision = Number((range.header as { revision?: string } | undefined)?.revision);
  if (!Number.isInteger(revision) || revision <= 0) throw new Error(`etcd: no revision in ${JSON.stringify(range)}`);
  await call('/v3/kv/compaction', { revision: String(revision), physical: true });
  return revision;
}

export async function startKarmada(options: KarmadaStartOptions = {}): Promise<KarmadaControlPlane> {
  const log = options.log ?? defaultLog;
  const binDir = resolveKarmadaBinDir(options.karmadaBinDir);
  const admission = options.admission ?? false;
  const started = Date.now();
  const deadline = () => Date.now() + (options.startTimeoutMs ?? 120_000);

  // The aggregation layer: karmada-apiserver proxies cluster.karmada.io to the aggregated apiserver as the
  // front-proxy client, and the aggregated apiserver trusts the request headers signed by this CA.
  const [frontProxyCa, componentsCa] = await Promise.all([
    makeCa('karmada-cluster-probe-front-proxy-ca'),
    makeCa('karmada-cluster-probe-karmada-components-ca'),
  ]);
  const frontProxyClient = await signClientPair(frontProxyCa, 'front-proxy-client');
  // Files the apiservers need before they start (front-proxy pair, member token files); removed by stop().
  const parentDir = options.parentDir ?? tmpdir();
  mkdirSync(parentDir, { recursive: true });
  const staging = mkdtempSync(join(parentDir, 'cluster-probe-karmada-staging-'));
  const stage = (file: string, content: string): string => {
    const path = join(staging, file);
    writeFileSync(path, content, { mode: 0o600 });
    return path;
  };
  const host = await startControlPlane({
    name: options.name ?? 'karmada',
    extraApiServerArgs: [
      `--requestheader-client-ca-file=${stage('front-proxy-ca.crt', frontProxyCa.cert)}`,
      '--requestheader-allowed-names=front-proxy-client',
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      `--proxy-client-cert-file=${stage('front-proxy-client.crt', frontProxyClient.cert)}`,
      `--proxy-client-key-file=${stage('front-proxy-client.key', frontProxyClient.key)}`,
    ],
    log: (line) => log(`karmada-apiserver: ${line}`),
    ...controlPlaneOptions(options),
  });
  const members: KarmadaMember[] = [];
  const stop = async (): Promise<void> => {
    for (const member of members) await member.controlPlane.stop();
    await host.stop();
    rmSync(staging, { recursive: true, force: true });
  };
  try {
    const dir = host.dir;
    const file = (name: string, content: string): string => {
      const path = join(dir, name);
      writeFileSync(path, content, { mode: 0o600 });
      return path;
    };
    const groups: ProcessGroup[] = [];
    const adopt = (group: ProcessGroup): ProcessGroup => {
      groups.push(group);
      return host.adopt(group);
    };

    log('creating namespaces karmada-system and karmada-cluster');
    await mustKubectl(host, ['create', 'namespace', KARMADA_SYSTEM_NAMESPACE]);
    await mustKubectl(host, ['create', 'namespace', MEMBER_SECRET_NAMESPACE]);

    log("applying Karmada's CRDs");
    const crdFiles = yamlFiles(join(binDir, 'artifacts', 'crds'));
    await mustKubectl(
      host,
      ['apply', '--server-side', '--force-conflicts', ...crdFiles.flatMap((f) => ['-f', f])],
      undefined,
      120_000,
    );
    await mustKubectl(
      host,
      ['wait', '--for=condition=Established', '--timeout=60s', 'crd', '--all'],
      undefined,
      90_000,
    );

    // karmada-aggregated-apiserver: the same etcd and prefix as karmada-apiserver (as in Karmada's own install).
    const aggregatedPort = await freePort();
    const aggregatedServing = await signServingPair(componentsCa, 'karmada-aggregated-apiserver', [
      `karmada-aggregated-apiserver.${KARMADA_SYSTEM_NAMESPACE}.svc`,
    ]);
    const aggregatedBinary = admission ? 'karmada-aggregated-apiserver-admission' : 'karmada-aggregated-apiserver';
    log(`starting ${aggregatedBinary} on https://127.0.0.1:${aggregatedPort}`);
    const aggregatedArgv = [
      join(binDir, aggregatedBinary),
      `--kubeconfig=${host.kubeconfigPath}`,
      `--authentication-kubeconfig=${host.kubeconfigPath}`,
      `--authorization-kubeconfig=${host.kubeconfigPath}`,
      `--etcd-servers=http://127.0.0.1:${host.ports.etcdClient}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${aggregatedPort}`,
      `--cert-dir=${join(dir, 'aggregated-apiserver')}`,
      `--tls-cert-file=${file('aggregated.crt', aggregatedServing.cert)}`,
      `--tls-private-key-file=${file('aggregated.key', aggregatedServing.key)}`,
      '--feature-gates=AllAlpha=false',
    ];
    const aggregatedReady = async (): Promise<boolean> => {
      const res = await httpsGet({ port: aggregatedPort, path: '/readyz', ca: componentsCa.cert, timeoutMs: 3_000 });
      return res.status === 200;
    };
    let aggregated = adopt(
      new ProcessGroup(
        'karmada-aggregated-apiserver',
        aggregatedArgv[0]!,
        aggregatedArgv.slice(1),
        join(dir, 'karmada-aggregated-apiserver.log'),
      ),
    );
    await waitFor('karmada-aggregated-apiserver /readyz', deadline(), [aggregated], aggregatedReady);
    log(`registering APIService ${KARMADA_CLUSTER_APISERVICE} (ExternalName Service to localhost)`);
    const apiService = [
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'karmada-aggregated-apiserver', namespace: KARMADA_SYSTEM_NAMESPACE },
        spec: { type: 'ExternalName', externalName: 'localhost' },
      },
      {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: KARMADA_CLUSTER_APISERVICE, labels: { app: 'karmada-aggregated-apiserver' } },
        spec: {
          caBundle: b64(componentsCa.cert),
          group: 'cluster.karmada.io',
          groupPriorityMinimum: 2000,
          service: { name: 'karmada-aggregated-apiserver', namespace: KARMADA_SYSTEM_NAMESPACE, port: aggregatedPort },
          version: 'v1alpha1',
          versionPriority: 10,
        },
      },
    ];
    await mustKubectl(host, ['apply', '-f', '-'], asList(apiService));
    await mustKubectl(
      host,
      ['wait', '--for=condition=Available', '--timeout=60s', `apiservice/${KARMADA_CLUSTER_APISERVICE}`],
      undefined,
      90_000,
    );
    // Available is not yet discoverable: kube-apiserver's aggregated discovery picks the group up a moment later, and
    // kubectl caches discovery per server. Wait until a fresh discovery (which also refreshes that cache) lists it.
    await waitFor('cluster.karmada.io in discovery', deadline(), [aggregated], async () => {
      const out = await host.kubectl(['api-resources', '--api-group=cluster.karmada.io', '-o', 'name']);
      return out.code === 0 && out.stdout.split('\n').includes('clusters.cluster.karmada.io');
    });

    // karmada-webhook: without it bindings miss their permanent-id labels.
    const webhookPort = await freePort();
    const webhookHealthPort = await freePort();
    const webhookCertDir = join(dir, 'karmada-webhook');
    mkdirSync(webhookCertDir, { recursive: true });
    const webhookServing = await signServingPair(componentsCa, 'karmada-webhook');
    writeFileSync(join(webhookCertDir, 'tls.crt'), webhookServing.cert, { mode: 0o600 });
    writeFileSync(join(webhookCertDir, 'tls.key'), webhookServing.key, { mode: 0o600 });
    log(`starting karmada-webhook on https://127.0.0.1:${webhookPort}`);
    const webhook = adopt(
      new ProcessGroup(
        'karmada-webhook',
        join(binDir, 'karmada-webhook'),
        [
          `--kubeconfig=${host.kubeconfigPath}`,
          '--bind-address=127.0.0.1',
          `--secure-port=${webhookPort}`,
          `--cert-dir=${webhookCertDir}`,
          `--metrics-bind-address=127.0.0.1:${await freePort()}`,
          `--health-probe-bind-address=127.0.0.1:${webhookHealthPort}`,
        ],
        join(dir, 'karmada-webhook.log'),
      ),
    );
    await waitFor('karmada-webhook /readyz', deadline(), [webhook], async () => {
      // karmada-webhook serves its readiness under /readyz/ (a subtree), as Karmada's own readinessProbe calls it.
      const res = await httpsGet({ port: webhookPort, path: '/readyz/', ca: componentsCa.cert, timeoutMs: 3_000 });
      return res.status === 200;
    });
    const webhookConfig = readFileSync(join(binDir, 'artifacts', 'webhook-configuration.yaml'), 'utf8')
      .replaceAll('https://karmada-webhook.karmada-system.svc:443', `https://127.0.0.1:${webhookPort}`)
      .replaceAll('{{caBundle}}', b64(componentsCa.cert));
    await mustKubectl(host, ['apply', '-f', '-'], webhookConfig);

    /** Clusters can be read through karmada-apiserver: etcd, karmada-apiserver, the APIService and its server up. */
    const clustersReadable = async (): Promise<boolean> => {
      const res = await httpsGet({
        port: host.ports.apiserver,
        path: '/apis/cluster.karmada.io/v1alpha1/clusters?limit=1',
        ca: host.caPem,
        cert: host.adminCert,
        key: host.adminKey,
        timeoutMs: 3_000,
      });
      return res.status === 200;
    };
    // etcd and karmada-apiserver are startControlPlane's processes: found by their command line (as member-faults.ts
    // does), started again as processes the host control plane adopts (its stop() and reaper end them), logging on
    // into the same files.
    const hostProcess = (binary: string): { pid: number; argv: string[] } => {
      for (const pid of host.pids()) {
        const argv = cmdline(pid);
        if (alive(pid) && argv?.[0] !== undefined && basename(argv[0]) === binary) return { pid, argv };
      }
      throw new Error(`no live ${binary} among the processes of ${host.dir}`);
    };
    const stopComponent = async (
      component: KarmadaComponent,
      stopOptions: StopComponentOptions = {},
    ): Promise<StoppedComponent> => {
      const signal = stopOptions.signal ?? 'SIGTERM';
      const signalledAt = Date.now();
      const graceMs = stopOptions.graceMs ?? 10_000;
      let argv: string[];
      let logFile: string;
      let ready: () => Promise<boolean>;
      if (component === 'karmada-aggregated-apiserver') {
        argv = aggregatedArgv;
        logFile = 'karmada-aggregated-apiserver.log';
        ready = aggregatedReady;
        await aggregated.stop(signal === 'SIGKILL' ? 0 : graceMs);
      } else {
        const binary = component === 'etcd' ? 'etcd' : 'kube-apiserver';
        const found = hostProcess(binary);
        argv = found.argv;
        logFile = `${binary}.log`;
        ready =
          component === 'etcd'
            ? async () => {
                const res = await httpGet(`http://127.0.0.1:${host.ports.etcdClient}/health`, 2_000);
                return res.status === 200 && res.body.includes('"health":"true"');
              }
            : clustersReadable;
        const kill = (sig: NodeJS.Signals): void => {
          try {
            process.kill(-found.pid, sig);
          } catch {
            // ESRCH: gone already.
          }
        };
        kill(signal);
        const gone = await waitFor(`${component} to exit`, Date.now() + graceMs, [], () =>
          Promise.resolve(!alive(found.pid)),
        ).then(
          () => true,
          () => false,
        );
        if (!gone) {
          kill('SIGKILL');
          await waitFor(`${component} to exit after SIGKILL`, Date.now() + 10_000, [], () =>
            Promise.resolve(!alive(found.pid)),
          );
        }
      }
      const stoppedAt = Date.now();
      log(
        `${component} stopped (${signal}; exited ${((stoppedAt - signalledAt) / 1000).toFixed(1)} s after the signal)`,
      );
      return {
        signalledAt,
        stoppedAt,
        async start(extraArgs: string[] = []): Promise<number> {
          log(`starting ${component} again${extraArgs.length > 0 ? ` with ${extraArgs.join(' ')}` : ''}`);
          const group = adopt(
            new ProcessGroup(component, argv[0]!, [...argv.slice(1), ...extraArgs], join(dir, logFile)),
          );
          if (component === 'karmada-aggregated-apiserver') aggregated = group;
          const until = Date.now() + (options.startTimeoutMs ?? 120_000);
          await waitFor(`the restarted ${component}`, until, [group], ready);
          await waitFor(`Clusters readable after ${component} restarted`, until, [group], clustersReadable);
          const backAt = Date.now();
          log(`${component} back after ${((backAt - stoppedAt) / 1000).toFixed(1)} s down`);
          return backAt;
        },
      };
    };

    const cmHealthPort = await freePort();
    log('starting karmada-controller-manager');
    const controllerManager = adopt(
      new ProcessGroup(
        'karmada-controller-manager',
        join(binDir, 'karmada-controller-manager'),
        [
          `--kubeconfig=${host.kubeconfigPath}`,
          `--cluster-status-update-frequency=${options.clusterStatusUpdateSeconds ?? 10}s`,
          `--metrics-bind-address=127.0.0.1:${await freePort()}`,
          `--health-probe-bind-address=127.0.0.1:${cmHealthPort}`,
          ...(options.extraControllerManagerArgs ?? []),
        ],
        join(dir, 'karmada-controller-manager.log'),
      ),
    );
    const schedulerHealthPort = await freePort();
    log('starting karmada-scheduler');
    const scheduler = adopt(
      new ProcessGroup(
        'karmada-scheduler',
        join(binDir, 'karmada-scheduler'),
        [
          `--kubeconfig=${host.kubeconfigPath}`,
          `--metrics-bind-address=127.0.0.1:${await freePort()}`,
          `--health-probe-bind-address=127.0.0.1:${schedulerHealthPort}`,
          '--enable-scheduler-estimator=false',
        ],
        join(dir, 'karmada-scheduler.log'),
      ),
    );
    const healthy = (port: number) => async () => {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(3_000) });
      return res.status === 200;
    };
    await waitFor('karmada-controller-manager /healthz', deadline(), [controllerManager], healthy(cmHealthPort));
    await waitFor('karmada-scheduler /healthz', deadline(), [scheduler], healthy(schedulerHealthPort));

    for (let i = 1; i <= (options.members ?? 2); i++) {
      log(`starting member${i} (etcd + kube-apiserver, Nodes Ready)`);
      members.push(await startMember(i, options, staging, log));
    }
    for (const member of members) {
      log(`joining ${member.name} as a Push Cluster`);
      await mustKubectl(
        host,
        ['apply', '-f', '-'],
        joinManifests({
          name: member.name,
          url: member.controlPlane.url,
          token: member.token,
          caPem: member.controlPlane.caPem,
        }),
      );
    }
    for (const member of members) {
      await waitFor(`Cluster ${member.name} Ready (Karmada's own health check)`, deadline(), groups, async () => {
        const out = await host.kubectl([
          'get',
          'cluster',
          member.name,
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
        ]);
        return out.code === 0 && out.stdout.trim() === 'True';
      });
    }
    log(`Karmada ready in ${((Date.now() - started) / 1000).toFixed(1)}s (${members.length} members)`);

    return {
      host,
      members,
      binDir,
      admission,
      ports: {
        aggregatedApiserver: aggregatedPort,
        webhook: webhookPort,
        controllerManagerHealth: cmHealthPort,
        schedulerHealth: schedulerHealthPort,
      },
      async setNodesReady(memberName: string, ready: boolean, nodes?: string[]): Promise<void> {
        const member = members.find((m) => m.name === memberName);
        if (!member) throw new Error(`no member ${memberName} (members: ${members.map((m) => m.name).join(', ')})`);
        await setNodesReady((args) => member.controlPlane.kubectl(args), nodes ?? member.nodes, ready);
      },
      kubectl: (args, kubectlOptions) => host.kubectl(args, kubectlOptions),
      stopComponent,
      async restartComponent(component, restartOptions = {}): Promise<{ downAt: number; backAt: number }> {
        const stopped = await stopComponent(component, restartOptions);
        if ((restartOptions.downMs ?? 0) > 0) await new Promise((r) => setTimeout(r, restartOptions.downMs));
        const backAt = await stopped.start(restartOptions.extraArgs);
        return { downAt: stopped.signalledAt, backAt };
      },
      compactEtcd: () => compactEtcd(host.ports.etcdClient),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
