// A list+watch cache of one resource: lists (paged), watches from the list's resourceVersion, restarts the watch with
// jittered exponential backoff after any error, relists on 410 Gone and every resync period, and tells its handlers
// what was added, changed and removed. Knows no resource; its user decides what a change means.
import { isStatus, type KubeApi } from './client.js';
import { RealClock, type Clock } from '@karmada-cluster-probe/schema/api';

/** A full relist (and, in the reconciler, a reconcile of every Cluster) this often by default: 10 minutes. */
export const DEFAULT_RESYNC_MS = 10 * 60_000;

const REAL_CLOCK: Clock = new RealClock();

export interface ObjectWithMeta {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
}

interface ListResponse<T> {
  items?: T[];
  metadata?: { resourceVersion?: string; continue?: string };
}

export interface InformerHandlers<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
  /** After every complete list (the first and each relist), with the cache already replaced. */
  onSync?(): void;
}

export interface InformerOptions<T> {
  api: KubeApi;
  /** The collection path, e.g. /apis/cluster.karmada.io/v1alpha1/clusters. */
  path: string;
  /** A short name for logs and metrics, e.g. `clusters`. */
  resource: string;
  fieldSelector?: string;
  labelSelector?: string;
  /** Full relist period; default 10 minutes. */
  resyncMs?: number;
  /** Keeps only what the caller needs of each object (memory at scale). */
  transform?: (raw: T) => T;
  pageSize?: number;
  /** Called when the watch has to be restarted, with why. */
  onRestart?: (reason: 'gone' | 'error' | 'resync', err?: unknown) => void;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /**
   * Called when a handler throws. The informer goes on: the event is applied and its other handlers called (a throw
   * used to end the watch after the cache had moved on, so the event was never handled).
   */
  onHandlerError?: (err: unknown) => void;
  /** The clock of the resync period, the watch backoff and waitForSync's timeout (default the real one). */
  clock?: Clock;
}

/** Pages of one list: 2,000 of 500 are a million objects, far above any Karmada control plane's Clusters or Secrets. */
export const MAX_LIST_PAGES = 2_000;

/** A watch that ends this soon without an event is treated as a failure (client-go: "very short watch"). */
const SHORT_WATCH_MS = 1_000;

function keyOf(obj: ObjectWithMeta): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? '';
  return ns === undefined || ns === '' ? name : `${ns}/${name}`;
}

function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = clock.setTimer(clock.now() + ms, done);
    function done(): void {
      clock.clearTimer(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export class Informer<T extends ObjectWithMeta> {
  private cache = new Map<string, T>();
  private resourceVersion = '';
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];
  private controller = new AbortController();
  private loop: Promise<void> | undefined;
  private lastListAt = 0;
  private failures = 0;
  /** 410s one after another: since the last watch that delivered an event, ended cleanly, or failed otherwise. */
  private goneInARow = 0;
  private readonly handlers: InformerHandlers<T>[] = [];

  private readonly clock: Clock;

  constructor(private readonly options: InformerOptions<T>) {
    this.clock = options.clock ?? REAL_CLOCK;
  }

  addHandlers(handlers: InformerHandlers<T>): void {
    this.handlers.push(handlers);
  }

  get hasSynced(): boolean {
    return this.synced;
  }

  /** Objects by `name` (cluster-scoped) or `namespace/name`. */
  get(key: string): T | undefined {
    return this.cache.get(key);
  }

  list(): T[] {
    return [...this.cache.values()];
  }

  /** The cached objects, without a copy of the list (do not hold it across a change). */
  values(): IterableIterator<T> {
    return this.cache.values();
  }

  get size(): number {
    return this.cache.size;
  }

  start(): void {
    if (this.loop !== undefined) return;
    this.controller = new AbortController();
    this.loop = this.run(this.controller.signal);
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.loop;
    this.loop = undefined;
    for (const w of this.syncWaiters.splice(0)) w();
  }

  /** Resolves true once the first list is in the cache, false after `timeoutMs` or a stop. */
  waitForSync(timeoutMs: number): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = this.clock.setTimer(this.clock.now() + timeoutMs, () => resolve(this.synced));
      this.syncWaiters.push(() => {
        this.clock.clearTimer(t);
        resolve(this.synced);
      });
    });
  }

  private emit(fn: (h: InformerHandlers<T>) => void): void {
    for (const h of this.handlers)
      try {
        fn(h);
      } catch (err) {
        this.options.onHandlerError?.(err);
      }
  }

  private store(raw: T): T {
    return this.options.transform !== undefined ? this.options.transform(raw) : raw;
  }

  private async relist(signal: AbortSignal): Promise<void> {
    const items: T[] = [];
    let cont = '';
    let rv = '';
    let pages = 0;
    do {
      const page = await this.options.api.request<ListResponse<T>>('GET', this.options.path, {
        query: {
          limit: this.options.pageSize ?? 500,
          continue: cont === '' ? undefined : cont,
          fieldSelector: this.options.fieldSelector,
          labelSelector: this.options.labelSelector,
        },
        signal,
        timeoutMs: 60_000,
      });
      for (const item of page.items ?? []) items.push(this.store(item));
      const next = page.metadata?.continue ?? '';
      // A continue token that comes back, or that never ends, grew the list without bound and never synced.
      if (next !== '' && next === cont)
        throw new Error(`list ${this.options.path}: the apiserver returned the same continue token again`);
      if (next !== '' && ++pages >= MAX_LIST_PAGES)
        throw new Error(`list ${this.options.path}: more than ${MAX_LIST_PAGES} pages (MAX_LIST_PAGES)`);
      cont = next;
      rv = page.metadata?.resourceVersion ?? rv;
    } while (cont !== '');
    const next = new Map<string, T>();
    for (const item of items) next.set(keyOf(item), item);
    const old = this.cache;
    this.cache = next;
    this.resourceVersion = rv;
    this.lastListAt = this.clock.now();
    for (const [key, obj] of next) {
      const before = old.get(key);
      if (before === undefined) this.emit((h) => h.onAdd?.(obj));
      else if (before.metadata?.resourceVersion !== obj.metadata?.resourceVersion)
        this.emit((h) => h.onUpdate?.(before, obj));
    }
    for (const [key, obj] of old) if (!next.has(key)) this.emit((h) => h.onDelete?.(obj));
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
    this.emit((h) => h.onSync?.());
  }

  private apply(type: string, raw: T): void {
    if (raw.metadata?.resourceVersion !== undefined) this.resourceVersion = raw.metadata.resourceVersion;
    if (type === 'BOOKMARK') return;
    const obj = this.store(raw);
    const key = keyOf(obj);
    const before = this.cache.get(key);
    if (type === 'DELETED') {
      if (before !== undefined) {
        this.cache.delete(key);
        this.emit((h) => h.onDelete?.(obj));
      }
      return;
    }
    this.cache.set(key, obj);
    if (before === undefined) this.emit((h) => h.onAdd?.(obj));
    else if (before.metadata?.resourceVersion !== obj.metadata?.resourceVersion)
      this.emit((h) => h.onUpdate?.(before, obj));
  }

  private async run(signal: AbortSignal): Promise<void> {
    const resyncMs = this.options.resyncMs ?? DEFAULT_RESYNC_MS;
    let needList = true;
    while (!signal.aborted) {
      try {
        if (needList) {
          await this.relist(signal);
          needList = false;
        }
        const untilResync = Math.max(1, Math.ceil((this.lastListAt + resyncMs - this.clock.now()) / 1000));
        // Spread the watches' ends so that replicas and resources do not all relist together.
        const timeoutSeconds = Math.max(1, Math.min(untilResync, 300 + Math.floor(Math.random() * 300)));
        const watchedAt = this.clock.now();
        let events = 0;
        await this.options.api.watch<T>(
          this.options.path,
          {
            resourceVersion: this.resourceVersion,
            allowWatchBookmarks: true,
            timeoutSeconds,
            fieldSelector: this.options.fieldSelector,
            labelSelector: this.options.labelSelector,
          },
          (ev) => {
            this.failures = 0;
            this.goneInARow = 0;
            events++;
            this.apply(ev.type, ev.object);
          },
          signal,
        );
        if (events === 0 && this.clock.now() - watchedAt < SHORT_WATCH_MS && !signal.aborted)
          throw new Error(`watch ${this.options.path}: very short watch: ended without an event`);
        this.failures = 0;
        this.goneInARow = 0;
        if (this.clock.now() - this.lastListAt >= resyncMs) {
          needList = true;
          this.options.onRestart?.('resync');
        }
      } catch (err) {
        if (signal.aborted) break;
        if (isStatus(err, 410)) {
          needList = true;
          this.options.onRestart?.('gone', err);
          // The first 410 in a row relists at once, whatever failed before it: a 410 is the server answering again
          // (an apiserver back from a restart with its history compacted), and the backoff an outage's errors grew
          // (seconds) delayed the relist it asks for, and with it every change, by that long. One 410 after another
          // (a watch or list that is always Gone) backs off from the base.
          if (++this.goneInARow === 1) {
            this.failures = 0;
            continue;
          }
        }
        this.failures++;
        if (!isStatus(err, 410)) {
          // Another error between two 410s is an outage, not a watch that is always Gone: the next 410 is a first.
          this.goneInARow = 0;
          this.options.onRestart?.('error', err);
          // A watch that keeps failing (a 500, a resourceVersion the server refuses) relists once the resync
          // period has passed, as a watch that ends cleanly does.
          if (this.clock.now() - this.lastListAt >= resyncMs) needList = true;
        }
        const base = this.options.backoffBaseMs ?? 200;
        const max = this.options.backoffMaxMs ?? 30_000;
        const delay = Math.min(max, base * 2 ** Math.min(this.failures - 1, 16));
        await sleep(this.clock, delay / 2 + Math.random() * (delay / 2), signal);
      }
    }
  }
}
