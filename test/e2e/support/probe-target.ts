// A loopback probe target in a process of its own, for e2e tests whose own process is busy (watches of hundreds of
// Clusters, the replicas' log lines): served from the test's event loop, a target answers late whenever the test works,
// and the reconcilers' 1 s probes time out for reasons that are the harness's. GET /c/<name> answers 500 for the names
// set failing, 200 for the others; the process remembers when each name was asked (this machine's clock), so a test
// can tell when a Cluster was probed again after a replica died.
import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SERVER = `
const { createServer } = require('node:http');
const failing = new Set();
const probed = new Map();
const server = createServer((req, res) => {
  const name = (/^\\/c\\/([\\w.-]+)/.exec(req.url || '') || [])[1] || '';
  const at = Date.now();
  const list = probed.get(name);
  if (list === undefined) probed.set(name, [at]); else { list.push(at); if (list.length > 600) list.splice(0, 300); }
  res.writeHead(failing.has(name) ? 500 : 200).end();
});
server.keepAliveTimeout = 60000;
process.on('message', (m) => {
  if (m.fail !== undefined) { failing.clear(); for (const n of m.fail) failing.add(n); process.send({ id: m.id }); }
  if (m.firstAfter !== undefined)
    process.send({ id: m.id, times: m.names.map((n) => (probed.get(n) || []).find((t) => t >= m.firstAfter) ?? null) });
});
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
`;

export interface ProbeTarget {
  port: number;
  /** The names that answer 500 from now on (the others 200). */
  fail(names: readonly string[]): Promise<void>;
  /** For each name, the first time (epoch ms) it was asked at or after `at`, or undefined. */
  firstProbedAfter(names: readonly string[], at: number): Promise<(number | undefined)[]>;
  stop(): void;
}

export async function startProbeTarget(): Promise<ProbeTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-probe-target-'));
  const file = join(dir, 'server.cjs');
  writeFileSync(file, SERVER);
  const child: ChildProcess = fork(file, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, (m: { times?: (number | null)[] }) => void>();
  let next = 0;
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the probe target exited with ${code}`)));
    child.on('message', (m: { port?: number; id?: number; times?: (number | null)[] }) => {
      if (m.port !== undefined) resolve(m.port);
      if (m.id !== undefined) {
        pending.get(m.id)?.(m);
        pending.delete(m.id);
      }
    });
  });
  const ask = (message: object): Promise<{ times?: (number | null)[] }> =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      child.send({ ...message, id });
    });
  return {
    port,
    fail: async (names) => {
      await ask({ fail: [...names] });
    },
    firstProbedAfter: async (names, at) =>
      ((await ask({ firstAfter: at, names: [...names] })).times ?? []).map((t) => t ?? undefined),
    stop: () => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
