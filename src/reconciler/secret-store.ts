// Credentials for apiServer probes and the member's CA: the Secret that a Cluster's spec.secretRef names (keys `token`
// and `caBundle`, Karmada's convention), read from a Secret cache (src/kube) that keeps only those two keys and is
// kept current by a watch, so a rotated token or CA is used by the next probe run. Never logs their values.
import type { Clock, ProbeCredentials } from '@karmada-cluster-probe/probe';
import type { KubeApi } from '../kube/client.js';
import { SecretCache } from '../kube/secret-cache.js';

export type CredentialsLookup = { ok: true; credentials: ProbeCredentials } | { ok: false; message: string };
/** The Secret's caBundle as stored (base64 of PEM, the form of httpGet.caBundle); absent when the key is. */
export type CaLookup = { ok: true; caBundle?: string } | { ok: false; message: string };

export interface SecretStoreOptions {
  api: KubeApi;
  resyncMs?: number;
  onRestart?: (reason: 'gone' | 'error' | 'resync', err?: unknown) => void;
  onHandlerError?: (err: unknown) => void;
  /** Called when a cached Secret is added, changed or removed (`namespace/name`). */
  onChange?: (key: string) => void;
  /** The clock of the Secret informers (the controller's one clock). */
  clock?: Clock;
}

export class SecretStore {
  private readonly cache: SecretCache;

  constructor(options: SecretStoreOptions) {
    this.cache = new SecretCache({ ...options, keys: ['token', 'caBundle'] });
  }

  /** The resourceVersion of a cached Secret (to tell a changed Secret), or undefined. */
  versionOf(namespace: string, name: string): string | undefined {
    return this.cache.versionOf(namespace, name);
  }

  /** Starts watching a namespace before the first probe needs it. */
  watchNamespace(namespace: string): void {
    this.cache.watchNamespace(namespace);
  }

  async credentials(namespace: string, name: string, waitMs: number): Promise<CredentialsLookup> {
    const where = `spec.secretRef: Secret "${namespace}/${name}"`;
    const found = await this.cache.get(namespace, name, waitMs);
    if (!found.synced)
      return { ok: false, message: `${where}: cannot be read yet (the Secret list has not completed)` };
    if (found.secret === undefined) return { ok: false, message: `${where} not found` };
    const token = found.secret.data?.token;
    if (token === undefined || token === '') return { ok: false, message: `${where} has no key "token"` };
    const credentials: ProbeCredentials = { token: Buffer.from(token, 'base64').toString('utf8').trim() };
    const ca = found.secret.data?.caBundle;
    if (ca !== undefined && ca !== '') credentials.caBundlePem = Buffer.from(ca, 'base64').toString('utf8');
    return { ok: true, credentials };
  }

  /**
   * The member's CA for a probe aimed at spec.apiEndpoint. Unlike credentials(), no token is needed; a missing Secret
   * is an error (we cannot know whom to trust), a Secret without caBundle means the system roots, as the probe says.
   */
  async caBundle(namespace: string, name: string, waitMs: number): Promise<CaLookup> {
    const where = `spec.secretRef: Secret "${namespace}/${name}"`;
    const found = await this.cache.get(namespace, name, waitMs);
    if (!found.synced)
      return { ok: false, message: `${where}: cannot be read yet (the Secret list has not completed)` };
    if (found.secret === undefined)
      return {
        ok: false,
        message: `${where} not found (it holds the CA of spec.apiEndpoint, which the probe targets)`,
      };
    const ca = found.secret.data?.caBundle;
    return ca !== undefined && ca !== '' ? { ok: true, caBundle: ca } : { ok: true };
  }

  async stop(): Promise<void> {
    await this.cache.stop();
  }
}
