// Credentials for apiServer probes: the Secret that a Cluster's spec.secretRef names (keys `token` and `caBundle`,
// Karmada's convention), kept current by one Secret informer per namespace that is referenced, so a rotated token is
// used by the next probe run. Keeps only those two keys in memory; never logs their values.
import type { ProbeCredentials } from '../probe/index.js';
import { Informer } from './informer.js';
import type { KubeApi } from './kube-client.js';

interface SecretObject {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  data?: Record<string, string>;
}

export type CredentialsLookup = { ok: true; credentials: ProbeCredentials } | { ok: false; message: string };
/** The Secret's caBundle as stored (base64 of PEM, the form of httpGet.caBundle); absent when the key is. */
export type CaLookup = { ok: true; caBundle?: string } | { ok: false; message: string };

export interface SecretStoreOptions {
  api: KubeApi;
  resyncMs?: number;
  onRestart?: (reason: 'gone' | 'error' | 'resync', err?: unknown) => void;
  /** Called when a cached Secret is added, changed or removed (`namespace/name`). */
  onChange?: (key: string) => void;
}

const KEEP = ['token', 'caBundle'];

function trim(secret: SecretObject): SecretObject {
  const data: Record<string, string> = {};
  for (const k of KEEP) {
    const v = secret.data?.[k];
    if (v !== undefined) data[k] = v;
  }
  return {
    metadata: {
      ...(secret.metadata?.name !== undefined ? { name: secret.metadata.name } : {}),
      ...(secret.metadata?.namespace !== undefined ? { namespace: secret.metadata.namespace } : {}),
      ...(secret.metadata?.resourceVersion !== undefined ? { resourceVersion: secret.metadata.resourceVersion } : {}),
    },
    data,
  };
}

export class SecretStore {
  private readonly informers = new Map<string, Informer<SecretObject>>();
  private stopped = false;

  constructor(private readonly options: SecretStoreOptions) {}

  private informer(namespace: string): Informer<SecretObject> {
    let inf = this.informers.get(namespace);
    if (inf === undefined) {
      inf = new Informer<SecretObject>({
        api: this.options.api,
        path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`,
        resource: 'secrets',
        transform: trim,
        ...(this.options.resyncMs !== undefined ? { resyncMs: this.options.resyncMs } : {}),
        ...(this.options.onRestart !== undefined ? { onRestart: this.options.onRestart } : {}),
      });
      const changed = (s: SecretObject): void =>
        this.options.onChange?.(`${s.metadata?.namespace ?? namespace}/${s.metadata?.name ?? ''}`);
      inf.addHandlers({ onAdd: changed, onUpdate: (_o, n) => changed(n), onDelete: changed });
      this.informers.set(namespace, inf);
      if (!this.stopped) inf.start();
    }
    return inf;
  }

  /** The resourceVersion of a cached Secret (to tell a changed Secret), or undefined. */
  versionOf(namespace: string, name: string): string | undefined {
    return this.informers.get(namespace)?.get(`${namespace}/${name}`)?.metadata?.resourceVersion;
  }

  /** Starts watching a namespace before the first probe needs it. */
  watchNamespace(namespace: string): void {
    this.informer(namespace);
  }

  async credentials(namespace: string, name: string, waitMs: number): Promise<CredentialsLookup> {
    const where = `spec.secretRef: Secret "${namespace}/${name}"`;
    const inf = this.informer(namespace);
    if (!(await inf.waitForSync(waitMs)))
      return { ok: false, message: `${where}: cannot be read yet (the Secret list has not completed)` };
    const secret = inf.get(`${namespace}/${name}`);
    if (secret === undefined) return { ok: false, message: `${where} not found` };
    const token = secret.data?.token;
    if (token === undefined || token === '') return { ok: false, message: `${where} has no key "token"` };
    const credentials: ProbeCredentials = { token: Buffer.from(token, 'base64').toString('utf8').trim() };
    const ca = secret.data?.caBundle;
    if (ca !== undefined && ca !== '') credentials.caBundlePem = Buffer.from(ca, 'base64').toString('utf8');
    return { ok: true, credentials };
  }

  /**
   * The member's CA for a probe aimed at spec.apiEndpoint. Unlike credentials(), no token is needed; a missing Secret
   * is an error (we cannot know whom to trust), a Secret without caBundle means the system roots, as the probe says.
   */
  async caBundle(namespace: string, name: string, waitMs: number): Promise<CaLookup> {
    const where = `spec.secretRef: Secret "${namespace}/${name}"`;
    const inf = this.informer(namespace);
    if (!(await inf.waitForSync(waitMs)))
      return { ok: false, message: `${where}: cannot be read yet (the Secret list has not completed)` };
    const secret = inf.get(`${namespace}/${name}`);
    if (secret === undefined)
      return {
        ok: false,
        message: `${where} not found (it holds the CA of spec.apiEndpoint, which the probe targets)`,
      };
    const ca = secret.data?.caBundle;
    return ca !== undefined && ca !== '' ? { ok: true, caBundle: ca } : { ok: true };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }
}
