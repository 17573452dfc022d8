// Our informer (src/kube) against @kubernetes/client-node's (makeInformer's ListWatch), each in a process of its own,
// on the Clusters of a real kube-apiserver reached through a TCP proxy that the bench can cut. Two phases:
//
// 1. N Clusters (default 5,000), the apiserver as it ships (watch cache on): time, CPU and memory to list them into
//    the cache; a change seen (latency); all connections cut (as an apiserver restart or a load balancer drops them),
//    then a change: seen, and how late; CPU over the watch window; bookmarks received; what each client asks for.
// 2. 500 Clusters, the watch served from etcd (--watch-cache=false) compacted every 5 s: the proxy refuses
//    connections for 12 s while a Cluster changes, so the resourceVersion each client resumes from is compacted away
//    (410 Gone): is the change seen, after how long, through how many lists.
//
// Figures only; nothing is asserted. Run:
//   CLUSTER_PROBE_CONTROLPLANE_BIN=... npx tsx bench/reconciler/informers.ts [--clusters 5000] [--watch 75]
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../src/kube/index.js';
import { startControlPlane, type ControlPlane } from '../../test/e2e/harness/controlplane.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./informer-child.ts', import.meta.url));
const CLUSTERS = `/apis/cluster.karmada.io/v1alpha1/clusters`;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const N = arg('clusters', 5000);
const WATCH_S = arg('watch', 75);
const CLIENTS = ['ours', 'client-node'] as const;

const log = (line: string): void => void process.stderr.write(`bench/reconciler/informers: ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TCP proxy to the apiserver: cut() resets every connection; refuse(ms) also resets new ones for a while. */
class Proxy {
  private readonly sockets = new Set<Socket>();
  private refuseUntil = 0;
  readonly server: Server;

  constructor(target: number) {
    this.server = createServer((client) => {
      if (Date.now() < this.refuseUntil) return void client.destroy();
      const upstream = createConnection({ host: '127.0.0.1', port: target });
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return (this.server.address() as AddressInfo).port;
  }

  cut(refuseMs = 0): void {
    this.refuseUntil = Date.now() + refuseMs;
    for (const s of this.sockets) s.destroy();
  }

  close(): void {
    this.cut();
    this.server.close();
  }
}

async function createClusters(api: KubeClient, n: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = next++; i < n; i = next++)
        await api.request('POST', CLUSTERS, {
          body: {
            apiVersion: 'cluster.karmada.io/v1alpha1',
            kind: 'Cluster',
            metadata: { name: `member-${i}` },
            spec: {
              syncMode: 'Push',
              apiEndpoint: 'https://127.0.0.1:6443',
              livenessProbe: { httpGet: { host: '127.0.0.1', port: 8080, path: `/c/${i}` } },
            },
          },
        });
    }),
  );
}

async function mark(api: KubeClient, value: string): Promise<number> {
  const at = Date.now();
  await api.request('PATCH', `${CLUSTERS}/member-0`, { body: { metadata: { labels: { 'bench-marker': value } } } });
  return at;
}

interface Child {
  lines: Record<string, unknown>[];
  next(key: string, timeoutMs: number): Promise<Record<string, unknown> | undefined>;
  exited: Promise<void>;
}

function runChild(client: string, kubeconfig: string, seconds: number): Child {
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      CHILD,
      '--client',
      client,
      '--kubeconfig',
      kubeconfig,
      '--seconds',
      `${seconds}`,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (l) => {
    lines.push(JSON.parse(l) as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let read = 0;
  return {
    lines,
    exited,
    async next(key, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (read < lines.length) {
          const l = lines[read++]!;
          if (key in l) return l;
        }
        if (Date.now() > deadline) return undefined;
        await Promise.race([new Promise<void>((r) => waiters.push(r)), sleep(200)]);
      }
    },
  };
}

/** When the child saw `value` as member-0's marker, or undefined. */
function seenAt(child: Child, value: string): number | undefined {
  const l = child.lines.find((x) => x.marker === value);
  return l === undefined ? undefined : Number(l.at);
}

async function setup(
  name: string,
  n: number,
  extraApiServerArgs: string[],
): Promise<{ cp: ControlPlane; api: KubeClient; proxy: Proxy; kubeconfig: string }> {
  log(`${name}: starting the control plane ${extraApiServerArgs.join(' ')}`);
  const cp = await startControlPlane({ log: (l) => log(l), extraApiServerArgs, name: 'bench' });
  await cp.applyCrd(join(ROOT, 'manifests/crd/cluster.karmada.io_clusters.yaml'));
  const kc = new KubeConfig();
  kc.loadFromFile(cp.kubeconfigPath);
  const api = new KubeClient(kc, { qps: 0 });
  const t0 = Date.now();
  await createClusters(api, n);
  log(`${name}: ${n} Clusters created in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const port = Number(new URL(cp.url).port);
  const proxy = new Proxy(port);
  const proxyPort = await proxy.listen();
  const kubeconfig = join(cp.dir, 'via-proxy.kubeconfig');
  writeFileSync(kubeconfig, readFileSync(cp.kubeconfigPath, 'utf8').replaceAll(`:${port}`, `:${proxyPort}`));
  return { cp, api, proxy, kubeconfig };
}

async function phaseOne(): Promise<Record<string, unknown>> {
  const { cp, api, proxy, kubeconfig } = await setup('phase 1', N, []);
  const out: Record<string, unknown> = {};
  try {
    for (const client of CLIENTS) {
      log(`phase 1: ${client}`);
      const child = runChild(client, kubeconfig, WATCH_S);
      const synced = await child.next('synced', 180_000);
      if (synced === undefined) throw new Error(`${client}: no sync`);
      const t = Date.now();
      await sleep(3000);
      const a1 = await mark(api, `${client}-1`);
      await sleep(5000);
      log(`phase 1: ${client}: cutting every connection`);
      proxy.cut();
      const cutAt = Date.now();
      await sleep(5000);
      const a2 = await mark(api, `${client}-2`);
      await sleep(Math.max(0, t + (WATCH_S - 5) * 1000 - Date.now()));
      const a3 = await mark(api, `${client}-3`);
      const done = await child.next('done', (WATCH_S + 60) * 1000);
      await child.exited;
      const lat = (v: string, at: number): number | null => {
        const s = seenAt(child, v);
        return s === undefined ? null : (s - at) / 1000;
      };
      out[client] = {
        ...(synced.synced as object),
        changeSeenAfterS: lat(`${client}-1`, a1),
        afterCut: { changeMadeS: (a2 - cutAt) / 1000, seenAfterS: lat(`${client}-2`, a2) },
        lateChangeSeenAfterS: lat(`${client}-3`, a3),
        ...(done?.done as object),
      };
      log(`phase 1: ${client}: ${JSON.stringify(out[client])}`);
    }
  } finally {
    proxy.close();
    api.close();
    await cp.stop();
  }
  return out;
}

async function phaseTwo(): Promise<Record<string, unknown>> {
  const { cp, api, proxy, kubeconfig } = await setup('phase 2', 500, [
    '--watch-cache=false',
    '--etcd-compaction-interval=5s',
  ]);
  const out: Record<string, unknown> = {};
  try {
    for (const client of CLIENTS) {
      log(`phase 2: ${client}`);
      const child = runChild(client, kubeconfig, 40);
      const synced = await child.next('synced', 60_000);
      if (synced === undefined) throw new Error(`${client}: no sync`);
      await sleep(2000);
      log(`phase 2: ${client}: refusing connections for 12 s while member-0 changes`);
      proxy.cut(12_000);
      const resumed = Date.now() + 12_000;
      await sleep(2000);
      await mark(api, `${client}-gone`);
      // Other writes, so that compaction moves past what the client last saw.
      for (let i = 1; i <= 5; i++) {
        await api.request('PATCH', `${CLUSTERS}/member-${i}`, { body: { metadata: { labels: { touch: `${i}` } } } });
        await sleep(1000);
      }
      const done = await child.next('done', 100_000);
      await child.exited;
      const s = seenAt(child, `${client}-gone`);
      out[client] = {
        seenAfterResumeS: s === undefined ? null : (s - resumed) / 1000,
        ...(done?.done as object),
      };
      log(`phase 2: ${client}: ${JSON.stringify(out[client])}`);
    }
  } finally {
    proxy.close();
    api.close();
    await cp.stop();
  }
  return out;
}

async function main(): Promise<void> {
  const results = { clusters: N, watchSeconds: WATCH_S, phase1: await phaseOne(), phase2: await phaseTwo() };
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}

main().catch((err: unknown) => {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
