// A cache of Secrets, one informer per namespace asked for, keeping only the data keys the caller names (the rest of a
// Secret is never held in memory). Knows no convention about what the keys mean; never logs a value.
import type { Clock } from '@karmada-cluster-probe/schema/api';
import type { KubeApi } from './client.js';
import { Informer } from './informer.js';

export interface SecretObject {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  data?: Record<string, string>;
}

export interface SecretCacheOptions {
  api: KubeApi;
  /** The data keys kept; every other key is dropped as the object arrives. */
  keys: readonly string[];
  resyncMs?: number;
  onRestart?: (reason: 'gone' | 'error' | 'resync', err?: unknown) => void;
  /** Called when onChange throws (the informer goes on; see InformerOptions.onHandlerError). */
  onHandlerError?: (err: unknown) => void;
  /** Called when a cached Secret is added, changed or removed (`namespace/name`). */
  onChange?: (key: string) => void;
  /** The clock of the informers' resync and backoff (default the real one; tests advance a fake one). */
  clock?: Clock;
}

/** The Secret (its kept keys), absent when there is none; `synced: false` when the namespace's list has not completed. */
export type SecretLookup = { synced: false } | { synced: true; secret?: SecretObject };

export class SecretCache {
  private readonly informers = new Map<string, Informer<SecretObject>>();
  private stopped = false;

  constructor(private readonly options: SecretCacheOptions) {}

  private trim(secret: SecretObject): SecretObject {
    const data: Record<string, string> = {};
    for (const k of this.options.keys) {
      const v = secret.data?.[k];
      if (v !== undefined) data[k] = v;
    }
    const m = secret.metadata;
    return {
      metadata: {
        ...(m?.name !== undefined ? { name: m.name } : {}),
        ...(m?.namespace !== undefined ? { namespace: m.namespace } : {}),
        ...(m?.resourceVersion !== undefined ? { resourceVersion: m.resourceVersion } : {}),
      },
      data,
    };
  }

  private informer(namespace: string): Informer<SecretObject> {
    let inf = this.informers.get(namespace);
    if (inf === undefined) {
      inf = new Informer<SecretObject>({
        api: this.options.api,
        path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`,
        resource: 'secrets',
        transform: (s) => this.trim(s),
        resyncMs: this.options.resyncMs,
        onRestart: this.options.onRestart,
        onHandlerError: this.options.onHandlerError,
        clock: this.options.clock,
      });
      const changed = (s: SecretObject): void =>
        this.options.onChange?.(`${s.metadata?.namespace ?? namespace}/${s.metadata?.name ?? ''}`);
      inf.addHandlers({ onAdd: changed, onUpdate: (_o, n) => changed(n), onDelete: changed });
      this.informers.set(namespace, inf);
      if (!this.stopped) inf.start();
    }
    return inf;
  }

  /** Starts watching a namespace before the first lookup needs it. */
  watchNamespace(namespace: string): void {
    this.informer(namespace);
  }

  /** The resourceVersion of a cached Secret (to tell a changed Secret), or undefined. */
  versionOf(namespace: string, name: string): string | undefined {
    return this.informers.get(namespace)?.get(`${namespace}/${name}`)?.metadata?.resourceVersion;
  }

  /** The cached Secret, waiting at most `waitMs` for its namespace's first list. */
  async get(namespace: string, name: string, waitMs: number): Promise<SecretLookup> {
    const inf = this.informer(namespace);
    if (!(await inf.waitForSync(waitMs))) return { synced: false };
    const secret = inf.get(`${namespace}/${name}`);
    return secret === undefined ? { synced: true } : { synced: true, secret };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }
}
