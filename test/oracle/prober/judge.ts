// Runs the prober table (cases.ts): each row's servers are started, probed by the kubelet's code (the Go oracle,
// `scripts/build-oracle.mjs --prober`) and then by our engine (runProbe, in this process, denyList []), and each side
// is reduced to what is compared: the verdict, the message, the warnings and what the servers received.
//
// What is compared, and what is not (the rest is compared as it is, after normalise()):
// - The verdict: the kubelet's success (Success or Warning), failure, or errored (pkg/probe returned an error: the
//   worker throws the result away) against ours: success, failure, error with code ProbeErrored ("errored"), or a
//   configuration error ("error").
// - The message of a failure or an errored probe. Not of a success: prober.probe() drops a Success's output (the body,
//   for httpGet), so no user ever sees it, and ours says something else on purpose (docs/probe.md, httpGet).
// - The warnings: the kubelet's Warning output is `Probe terminated redirects, Response body: <body>`; we never show a
//   body (docs/probe.md), so its text before the body must begin ours.
// - What the servers received, target and other host together: each HTTP request's request-target and headers (names
//   case-insensitively, as HTTP has them; the order of different names is free, the order of one name's values is
//   not; the User-Agent each side sends by default is masked: ours names this project on purpose). TCP connections
//   are counted. gRPC rows compare the distinct requests, connections and Check services, not their number: a gRPC
//   client reconnects on its own backoff clock within the timeout, so how often is the clock's, not the prober's.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runProbe, USER_AGENT, type LivenessProbe, type ProbeResult } from '../../../packages/probe/src/index.js';
import { PROBER_ROWS, type CaseProbe, type ProberRow } from './cases.js';
import type { Recording, RunningServer } from './servers.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Rows probed at once (each row's servers are its own). */
const CONCURRENCY = 8;
/**
 * A side that takes longer than this has hung: the slowest probe of the table takes 3 attempts of 1 s (an errored
 * probe, retried), and no row's timeoutSeconds is above 5. The kubelet's side hanging is a fault of the harness (it
 * throws); ours hanging is a verdict of its own, `hung`, so the rest of the table still runs and the row says so.
 */
const SIDE_DEADLINE_MS = 30_000;

export type Verdict = 'success' | 'failure' | 'errored' | 'error' | 'hung';

export interface ReceivedHttp {
  /** `/path` as it arrived; `other /path` when it reached the row's other server. */
  target: string;
  /** `name: value`, names lower-cased, sorted by name (stable: one name's values keep their order). */
  headers: string[];
}

export interface Received {
  requests: ReceivedHttp[];
  connections: number;
  checks: string[];
}

export interface Side {
  verdict: Verdict;
  /** The failure's or errored probe's message (normalised); absent on success. */
  message?: string;
  warnings: string[];
  received: Received;
}

/** The aspects of a row that differ, each side's value of each. */
export interface RowDifference {
  kubelet: Partial<Side>;
  ours: Partial<Side>;
}

/** What the Go oracle prints for one probe. */
export interface OracleOutput {
  id: string;
  result: 'success' | 'warning' | 'failure' | 'unknown';
  kubelet: 'success' | 'failure';
  errored: boolean;
  output: string;
  error?: string;
  attempts: number;
  fault?: string;
}

export interface RowRun {
  name: string;
  handler: 'httpGet' | 'tcpSocket' | 'grpc';
  kubelet: Side;
  ours: Side;
  oracle: OracleOutput;
  /** Our ProbeResult (absent when runProbe hung). */
  result?: ProbeResult;
}

/** Builds the oracles when missing (scripts/build-oracle.mjs --prober) and returns the prober oracle's path. */
export function proberOracleBinary(): string {
  const built = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build-oracle.mjs'), '--prober'], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (built.status !== 0) throw new Error(`scripts/build-oracle.mjs --prober failed (exit ${String(built.status)})`);
  const path = built.stdout.trim().split('\n').pop();
  if (path === undefined || path === '') throw new Error('scripts/build-oracle.mjs --prober printed no path');
  return path;
}

/** One long-lived oracle process: a JSON line in per probe, a JSON line out per answer, probes run concurrently. */
export class ProberOracle {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<string, (o: OracleOutput) => void>();
  private readonly exited: Promise<void>;
  private stderr = '';
  private next = 0;

  constructor(binary: string) {
    this.child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const out = JSON.parse(line) as OracleOutput;
      const done = this.pending.get(out.id);
      this.pending.delete(out.id);
      done?.(out);
    });
    this.exited = new Promise((resolve) => this.child.on('close', () => resolve()));
    void this.exited.then(() => {
      for (const [id, done] of this.pending)
        done({
          id,
          result: 'unknown',
          kubelet: 'failure',
          errored: false,
          output: '',
          attempts: 0,
          fault: `the oracle exited: ${this.stderr}`,
        });
      this.pending.clear();
    });
  }

  probe(input: { probe: unknown; podIP: string }): Promise<OracleOutput> {
    const id = String(this.next++);
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ id, ...input })}\n`);
    });
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    await this.exited;
  }
}

/** The kubelet's v1.Probe for a row's probe: ours minus what Kubernetes lacks (caBundle, insecureSkipTLSVerify,
 * grpc.host, which is the pod IP there). */
export function kubeletInput(p: CaseProbe): { probe: unknown; podIP: string } {
  if ('httpGet' in p) {
    const { caBundle: _ca, insecureSkipTLSVerify: _skip, ...httpGet } = p.httpGet;
    return { probe: { timeoutSeconds: p.timeoutSeconds, httpGet }, podIP: p.httpGet.host };
  }
  if ('tcpSocket' in p)
    return { probe: { timeoutSeconds: p.timeoutSeconds, tcpSocket: p.tcpSocket }, podIP: p.tcpSocket.host };
  const { host, ...grpc } = p.grpc;
  return { probe: { timeoutSeconds: p.timeoutSeconds, grpc }, podIP: host };
}

/** Ports and durations out of a message; nothing else (addresses stay: a different one is a difference). */
export function normalise(text: string): string {
  // Bracketed IPv6 literals are set aside first, so their colons are not taken for ports.
  const literals: string[] = [];
  const held = text.replace(/\[[0-9A-Fa-f:.%]+\]/g, (literal) => `\uE000${literals.push(literal) - 1}\uE000`);
  return (
    held
      // OpenSSL's error text starts with the id of the thread that queued it (an address, new in every process).
      .replace(/\b[0-9A-F]{8,16}(?=:error:)/g, 'THREAD')
      .replace(/(?<=[0-9A-Za-z.\uE000]):\d{1,5}(?!\w)/g, ':PORT')
      .replace(/(?<![\w.])(\d+(\.\d+)?(ns|µs|us|ms|s|m|h))+(?!\w)/g, 'DURATION')
      .replace(/\uE000(\d+)\uE000/g, (_, i: string) => literals[Number(i)] ?? '')
  );
}

function received(
  rec: { target: Recording; others: Recording[] },
  defaultAgent: (ua: string) => boolean,
  grpc: boolean,
): Received {
  const requests: ReceivedHttp[] = [];
  const add = (r: Recording, prefix: string): void => {
    for (const q of r.requests) {
      const headers = q.headers
        .map(([n, v]) => {
          const name = n.toLowerCase();
          return `${name}: ${name === 'user-agent' && defaultAgent(v) ? '<default user-agent>' : normalise(v)}`;
        })
        .map((line, i) => ({ line, i }))
        .sort((a, b) => {
          const an = a.line.slice(0, a.line.indexOf(':'));
          const bn = b.line.slice(0, b.line.indexOf(':'));
          return an < bn ? -1 : an > bn ? 1 : a.i - b.i;
        })
        .map((x) => x.line);
      requests.push({ target: `${prefix}${normalise(q.target)}`, headers });
    }
  };
  add(rec.target, '');
  for (const o of rec.others) add(o, 'other ');
  let connections = rec.target.connections + rec.others.reduce((n, o) => n + o.connections, 0);
  let checks = [...rec.target.checks, ...rec.others.flatMap((o) => o.checks)].map((c) => c.service);
  if (!grpc) return { requests, connections, checks };
  const seen = new Set<string>();
  const distinct = requests.filter((r) => {
    const key = JSON.stringify(r);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  connections = Math.min(connections, 1);
  checks = [...new Set(checks)];
  return { requests: distinct, connections, checks };
}

const KUBE_AGENT = /^kube-probe\/\d+\.\d+$/;
const WARNING_BODY = ', Response body: ';

export function kubeletSide(o: OracleOutput, rec: Received): Side {
  if (o.fault !== undefined) throw new Error(`the prober oracle failed: ${o.fault}`);
  if (o.errored) return { verdict: 'errored', message: normalise(o.error ?? ''), warnings: [], received: rec };
  if (o.kubelet === 'success') {
    const at = o.output.indexOf(WARNING_BODY);
    const warning = at >= 0 ? o.output.slice(0, at) : o.output;
    return { verdict: 'success', warnings: o.result === 'warning' ? [normalise(warning)] : [], received: rec };
  }
  return { verdict: 'failure', message: normalise(o.output), warnings: [], received: rec };
}

export function oursSide(r: ProbeResult, rec: Received): Side {
  const verdict: Verdict = r.result === 'error' ? (r.code === 'ProbeErrored' ? 'errored' : 'error') : r.result;
  return {
    verdict,
    ...(verdict !== 'success' ? { message: normalise(r.message) } : {}),
    warnings: (r.warnings ?? []).map(normalise),
    received: rec,
  };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The aspects in which the two sides differ, or undefined when the row agrees. */
export function differenceOf(kubelet: Side, ours: Side): RowDifference | undefined {
  const d: RowDifference = { kubelet: {}, ours: {} };
  let any = false;
  if (kubelet.verdict !== ours.verdict) {
    d.kubelet.verdict = kubelet.verdict;
    d.ours.verdict = ours.verdict;
    any = true;
  }
  if (kubelet.message !== ours.message) {
    if (kubelet.message !== undefined) d.kubelet.message = kubelet.message;
    if (ours.message !== undefined) d.ours.message = ours.message;
    any = true;
  }
  const warningsAgree =
    kubelet.warnings.length === ours.warnings.length &&
    kubelet.warnings.every((w, i) => (ours.warnings[i] ?? '').startsWith(w));
  if (!warningsAgree) {
    d.kubelet.warnings = kubelet.warnings;
    d.ours.warnings = ours.warnings;
    any = true;
  }
  if (!same(kubelet.received, ours.received)) {
    d.kubelet.received = kubelet.received;
    d.ours.received = ours.received;
    any = true;
  }
  return any ? d : undefined;
}

function withDeadline<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still running after ${SIDE_DEADLINE_MS} ms`)), SIDE_DEADLINE_MS);
  });
  return Promise.race([p, hang]).finally(() => clearTimeout(timer));
}

async function snapshot(servers: RunningServer[]): Promise<{ target: Recording; others: Recording[] }> {
  await Promise.all(servers.map((s) => s.settle()));
  const [target, ...others] = servers.map((s) => s.recording);
  if (target === undefined) throw new Error('a row without a server');
  for (const s of servers) s.reset();
  return { target, others };
}

/** Probes one row's servers with the kubelet's code, then with ours, and closes them. */
export async function runRow(row: ProberRow, oracle: ProberOracle): Promise<RowRun> {
  const { target, others } = await row.serve();
  const servers = [target, ...others];
  try {
    const probe = await row.probe({ host: target.host, port: target.port });
    const grpc = 'grpc' in probe;
    const oracleOut = await withDeadline(`the kubelet's probe of "${row.name}"`, oracle.probe(kubeletInput(probe)));
    const kubeRec = received(await snapshot(servers), (ua) => KUBE_AGENT.test(ua), grpc);
    const hung = Symbol('hung');
    const result = await withDeadline(
      `our probe of "${row.name}"`,
      runProbe(probe as LivenessProbe, { denyList: [] }),
    ).catch(() => hung);
    const oursRec = received(await snapshot(servers), (ua) => ua === USER_AGENT, grpc);
    const ours: Side =
      result === hung
        ? {
            verdict: 'hung',
            message: `runProbe did not return within ${SIDE_DEADLINE_MS} ms`,
            warnings: [],
            received: oursRec,
          }
        : oursSide(result as ProbeResult, oursRec);
    return {
      name: row.name,
      handler: 'httpGet' in probe ? 'httpGet' : 'tcpSocket' in probe ? 'tcpSocket' : 'grpc',
      kubelet: kubeletSide(oracleOut, kubeRec),
      ours,
      oracle: oracleOut,
      ...(result !== hung ? { result: result as ProbeResult } : {}),
    };
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

/** Runs the whole table (CONCURRENCY rows at a time) with one oracle process. */
export async function runTable(
  rows: readonly ProberRow[] = PROBER_ROWS,
  binary = proberOracleBinary(),
): Promise<RowRun[]> {
  const oracle = new ProberOracle(binary);
  const runs: RowRun[] = new Array<RowRun>(rows.length);
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, rows.length) }, async () => {
        while (next < rows.length) {
          const i = next++;
          const row = rows[i];
          if (row !== undefined) runs[i] = await runRow(row, oracle);
        }
      }),
    );
  } finally {
    await oracle.close();
  }
  return runs;
}
