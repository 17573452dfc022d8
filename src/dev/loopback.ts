// Loopback networking for the local control plane: free ports, HTTP(S) GETs with a timeout, and a bounded poll that
// gives up early when a process it waits on has died. Talks to 127.0.0.1 only; knows nothing of Kubernetes.
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { ProcessGroup } from './process-group.js';
import { messageOf } from '@karmada-cluster-probe/schema/api';

/** Where freePort looks: below the kernel's ephemeral range, above the ports services usually take. */
export const FREE_PORT_FLOOR = 20_000;

/**
 * The kernel's ephemeral range (`net.ipv4.ip_local_port_range`), from which it takes the local port of every outgoing
 * connection; Linux's default when the file cannot be read.
 */
export function ephemeralPortRange(text?: string): { low: number; high: number } {
  let raw = text;
  if (raw === undefined) {
    try {
      raw = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
    } catch {
      raw = '';
    }
  }
  const [low, high] = raw.trim().split(/\s+/).map(Number);
  return Number.isInteger(low) && Number.isInteger(high) && low! > 0 && high! >= low!
    ? { low: low!, high: high! }
    : { low: 32_768, high: 60_999 };
}

const handedOut = new Set<number>();
let ephemeralLow: number | undefined;

function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A port free on 127.0.0.1 a moment ago, for a process started next to listen on. It is taken below the ephemeral
 * range: a port the kernel hands out (`listen(0)`) is also the one it gives the next outgoing connection, and a
 * kube-apiserver opening dozens to its etcd took one chosen that way before its neighbour could bind it ("bind:
 * address already in use", seen in CI). A port is handed out once per process; the ephemeral range only when the
 * range below it is spent or too small.
 */
export async function freePort(random: () => number = Math.random): Promise<number> {
  const low = (ephemeralLow ??= ephemeralPortRange().low);
  const span = low - FREE_PORT_FLOOR;
  for (let attempt = 0; span > 0 && attempt < 64; attempt++) {
    const port = FREE_PORT_FLOOR + Math.floor(random() * span);
    if (handedOut.has(port)) continue;
    if ((await tryListen(port)) === port) {
      handedOut.add(port);
      return port;
    }
  }
  for (let attempt = 0; attempt < 16; attempt++) {
    const port = await tryListen(0);
    if (port !== undefined && !handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free port on 127.0.0.1 (64 tries below the ephemeral range and 16 in it)');
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
