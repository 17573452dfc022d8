// One informer on the Clusters, in a process of its own so that its memory and CPU are its own: `ours` (src/kube's
// Informer and KubeClient, with the reconciler's transform that drops managedFields) or `client-node`
// (@kubernetes/client-node's ListWatch with its Watch, the list from the generated CustomObjectsApi, restarted after
// an error as client-node's README shows). Run by bench/reconciler/informers.ts; prints JSON lines on stdout:
// {"synced": ...} once the list is in the cache, {"marker": ...} whenever member-0's label bench-marker changes in the
// cache, and {"done": ...} with the counts at the end. Flags: --client ours|client-node --kubeconfig PATH --seconds S
import { CustomObjectsApi, KubeConfig, ListWatch, Watch } from '@kubernetes/client-node';
import { Informer, KubeClient, type KubeApi, type WatchEvent } from '../../src/kube/index.js';
import type { Cluster } from '../../packages/schema/src/schema/index.js';

const argOf = (name: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || process.argv[i + 1] === undefined) throw new Error(`--${name} is required`);
  return process.argv[i + 1]!;
};
const CLIENT = argOf('client');
const SECONDS = Number(argOf('seconds'));
const kc = new KubeConfig();
kc.loadFromFile(argOf('kubeconfig'));

const GROUP = 'cluster.karmada.io';
const VERSION = 'v1alpha1';
const PLURAL = 'clusters';
const PATH = `/apis/${GROUP}/${VERSION}/${PLURAL}`;

const counts = {
  lists: 0,
  watchRequests: 0,
  events: 0,
  bookmarks: 0,
  gone: 0,
  errors: 0,
  restarts: 0,
  errorMessages: [] as string[],
};
let watchQuery: Record<string, unknown> | undefined;
const print = (obj: object): void => void process.stdout.write(`${JSON.stringify(obj)}\n`);
const gc = (globalThis as { gc?: () => void }).gc;

function memory(): { rssMiB: number; heapUsedMiB: number } {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { rssMiB: Math.round(m.rss / 1048576), heapUsedMiB: Math.round(m.heapUsed / 1048576) };
}

function cpuS(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** The reconciler's transform: managedFields is never read. */
function slim(cluster: Cluster): Cluster {
  if (cluster.metadata === undefined || !('managedFields' in cluster.metadata)) return cluster;
  const { managedFields: _drop, ...metadata } = cluster.metadata;
  return { ...cluster, metadata };
}

interface Cache {
  get(name: string): Cluster | undefined;
  size(): number;
  stop(): Promise<void>;
}

async function startOurs(): Promise<Cache> {
  const client = new KubeClient(kc);
  // Counts what goes over the wire; the informer itself is unchanged.
  const api: KubeApi = {
    request: (method, path, options) => {
      if (method === 'GET' && path === PATH) counts.lists++;
      return client.request(method, path, options);
    },
    watch: <T>(
      path: string,
      query: Record<string, string | number | boolean | undefined>,
      onEvent: (e: WatchEvent<T>) => void,
      signal: AbortSignal,
    ) => {
      counts.watchRequests++;
      watchQuery ??= { ...query };
      return client.watch<T>(
        path,
        query,
        (e) => {
          counts.events++;
          if (e.type === 'BOOKMARK') counts.bookmarks++;
          onEvent(e);
        },
        signal,
      );
    },
  };
  const informer = new Informer<Cluster>({
    api,
    path: PATH,
    resource: 'clusters',
    transform: slim,
    onRestart: (reason, err) => {
      if (reason === 'gone') counts.gone++;
      if (reason === 'error') {
        counts.errors++;
        counts.restarts++;
        if (counts.errorMessages.length < 3)
          counts.errorMessages.push(err instanceof Error ? err.message : String(err));
      }
    },
  });
  informer.start();
  if (!(await informer.waitForSync(120_000))) throw new Error('ours: no sync in 120 s');
  return {
    get: (name) => informer.get(name),
    size: () => informer.size,
    stop: async () => {
      await informer.stop();
      client.close();
    },
  };
}

/** client-node's Watch, counting what it sends and receives. */
class CountingWatch extends Watch {
  override async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: unknown, watchObj?: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController> {
    counts.watchRequests++;
    watchQuery ??= { ...queryParams };
    return super.watch(
      path,
      queryParams,
      (phase, obj, watchObj) => {
        counts.events++;
        if (phase === 'BOOKMARK') counts.bookmarks++;
        if (phase === 'ERROR' && (obj as { code?: number }).code === 410) counts.gone++;
        callback(phase, obj, watchObj);
      },
      done,
    );
  }
}

async function startClientNode(): Promise<Cache> {
  const custom = kc.makeApiClient(CustomObjectsApi);
  const listFn = async (): Promise<{ items: Cluster[]; metadata: { resourceVersion?: string } }> => {
    counts.lists++;
    return (await custom.listClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURAL })) as {
      items: Cluster[];
      metadata: { resourceVersion?: string };
    };
  };
  const informer = new ListWatch<Cluster & { metadata: { name: string } }>(
    PATH,
    new CountingWatch(kc),
    listFn as never,
    false,
  );
  let stopped = false;
  // As client-node's README: an error stops the informer; the caller restarts it.
  informer.on('error', (err: unknown) => {
    counts.errors++;
    if (counts.errorMessages.length < 3) counts.errorMessages.push(err instanceof Error ? err.message : String(err));
    if (stopped) return;
    setTimeout(() => {
      if (stopped) return;
      counts.restarts++;
      informer.start().catch(() => undefined);
    }, 5000);
  });
  await informer.start();
  return {
    get: (name) => informer.get(name),
    size: () => informer.list().length,
    stop: async () => {
      stopped = true;
      await informer.stop();
    },
  };
}

async function main(): Promise<void> {
  const c0 = cpuS();
  const t0 = performance.now();
  const cache = CLIENT === 'ours' ? await startOurs() : await startClientNode();
  const syncMs = Math.round(performance.now() - t0);
  const syncCpuS = cpuS() - c0;
  print({ synced: { client: CLIENT, objects: cache.size(), syncMs, syncCpuS, ...memory() } });
  let marker = cache.get('member-0')?.metadata?.labels?.['bench-marker'];
  const c1 = cpuS();
  const t1 = performance.now();
  let rssMax = 0;
  while (performance.now() - t1 < SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, 50));
    const now = cache.get('member-0')?.metadata?.labels?.['bench-marker'];
    if (now !== marker) {
      marker = now;
      print({ marker: now, at: Date.now() });
    }
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
  }
  const watchCpuS = cpuS() - c1;
  const end = memory();
  await cache.stop();
  print({
    done: {
      client: CLIENT,
      objects: cache.size(),
      watchSeconds: SECONDS,
      watchCpuS,
      rssMaxMiB: Math.round(rssMax / 1048576),
      ...end,
      watchQuery,
      ...counts,
    },
  });
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `informer-child ${CLIENT}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
