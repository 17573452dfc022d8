// Loopback networking for the local control plane: free ports, HTTP(S) GETs with a timeout, and a bounded poll that
// gives up early when a process it waits on has died. Talks to 127.0.0.1 only; knows nothing of Kubernetes.
import { request } from 'node:https';
import { createServer } from 'node:net';
import type { ProcessGroup } from './process-group.js';
import { messageOf } from '@karmada-cluster-probe/schema/api';

/** A port that was free on 127.0.0.1 a moment ago (the usual small race with whoever binds it next). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface HttpsGetOptions {
  /** Default 127.0.0.1. */
  host?: string;
  port: number;
  path: string;
  ca: string;
  cert?: string;
  key?: string;
  timeoutMs: number;
}

/** GET https://127.0.0.1:<port><path>, verifying the server against `ca`, optionally with a client certificate. */
export function httpsGet(options: HttpsGetOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: options.host ?? '127.0.0.1',
        port: options.port,
        path: options.path,
        method: 'GET',
        ca: options.ca,
        ...(options.cert !== undefined ? { cert: options.cert } : {}),
        ...(options.key !== undefined ? { key: options.key } : {}),
        timeout: options.timeoutMs,
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${options.path} timed out after ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

export async function httpGet(url: string, timeoutMs: number): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  return { status: res.status, body: await res.text() };
}

/** Polls check until it returns true, at most until deadline; fails early when a process it depends on has died. */
export async function waitFor(
  what: string,
  deadline: number,
  groups: readonly ProcessGroup[],
  check: () => Promise<boolean>,
): Promise<void> {
  let lastError = '';
  for (;;) {
    for (const group of groups) {
      const reason = group.exitReason;
      if (reason !== undefined) {
        throw new Error(`${group.name} ${reason} while waiting for ${what}; last log lines:\n${group.logTail()}`);
      }
    }
    try {
      if (await check()) return;
    } catch (err) {
      lastError = messageOf(err);
    }
    if (Date.now() > deadline) {
      const tails = groups.map((g) => `--- ${g.name} (${g.logPath}) ---\n${g.logTail()}`).join('\n');
      throw new Error(`timed out waiting for ${what}${lastError ? ` (last error: ${lastError})` : ''}\n${tails}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
