// Shared by the webhook's HTTPS tests: a small promise-based HTTPS client, review builders and a bounded wait.
// Only 127.0.0.1; every helper has a timeout so no test can hang.
import { mkdtemp, rm } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { pino } from 'pino';
import { makeCertificates, type PemPair } from '../../../src/certs/index.js';
import { DEFAULT_DENY_CIDRS, WebhookServer, type WebhookServerOptions } from '../../../src/webhook/index.js';

export interface HttpsResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  serialNumber?: string;
}

export interface RequestOptions {
  port: number;
  ca: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  agent?: https.Agent | false;
  timeoutMs?: number;
  maxVersion?: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
}

/** A failed request, saying whether the request could have reached the server (TLS was up when it failed). */
export class RequestError extends Error {
  constructor(
    readonly original: Error,
    readonly sent: boolean,
  ) {
    super(original.message);
    this.name = 'RequestError';
  }
  get code(): string | undefined {
    return (this.original as NodeJS.ErrnoException).code;
  }
}

export function httpsRequest(options: RequestOptions): Promise<HttpsResult> {
  return new Promise((resolve, reject) => {
    let secure = false;
    const req = https.request(
      {
        host: '127.0.0.1',
        port: options.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        ca: options.ca,
        agent: options.agent ?? false,
        timeout: options.timeoutMs ?? 10_000,
        ...(options.maxVersion ? { maxVersion: options.maxVersion, minVersion: 'TLSv1' as const } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const socket = res.socket as TLSSocket | null;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            serialNumber: socket?.getPeerCertificate?.()?.serialNumber,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('socket', (socket) => {
      if (req.reusedSocket) secure = true;
      else socket.once('secureConnect', () => (secure = true));
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', (err) => reject(new RequestError(err, secure)));
    req.end(options.body);
  });
}

export function postReview(
  port: number,
  ca: string,
  path: '/mutate' | '/validate',
  review: unknown,
  agent?: https.Agent | false,
): Promise<HttpsResult> {
  return httpsRequest({
    port,
    ca,
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    body: typeof review === 'string' ? review : JSON.stringify(review),
    agent,
  });
}

export function clusterReview(uid: string, probe: unknown = { tcpSocket: { port: 6443 } }): unknown {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: 'cluster.karmada.io', version: 'v1alpha1', kind: 'Cluster' },
      resource: { group: 'cluster.karmada.io', version: 'v1alpha1', resource: 'clusters' },
      name: 'member-dev',
      operation: 'CREATE',
      object: {
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name: 'member-dev' },
        spec: {
          syncMode: 'Push',
          apiEndpoint: 'https://172.18.0.3:6443',
          secretRef: { namespace: 'karmada-cluster', name: 'member-dev' },
          livenessProbe: probe,
        },
      },
    },
  };
}

/**
 * Polls `condition` every 25 ms. The deadline only catches a hang (docs/testing.md): what these tests wait for takes
 * well under 3 s on a quiet machine.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface TestServer {
  dir: string;
  ca: PemPair;
  server: WebhookServer;
  port: number;
  /** Shuts the server down and removes its certificate directory. */
  stop(): Promise<void>;
}

/** A webhook on 127.0.0.1, a free port, field mode, the default deny list, with fresh certificates in a temp dir. */
export async function startTestServer(prefix: string, extra: Partial<WebhookServerOptions> = {}): Promise<TestServer> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const { ca } = await makeCertificates(dir, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  const server = new WebhookServer({
    host: '127.0.0.1',
    port: 0,
    certDir: dir,
    probeLocation: 'field',
    denyHosts: [...DEFAULT_DENY_CIDRS],
    logger: pino({ level: 'silent' }),
    shutdownDelayMs: 0,
    ...extra,
  });
  await server.start();
  return {
    dir,
    ca,
    server,
    port: server.port,
    stop: async () => {
      await server.shutdown();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
