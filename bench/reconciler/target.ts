// The members' side of bench/reconciler: one loopback HTTP server that answers GET /c/<i> with 200, or 500 for the
// Clusters set failing, in a process of its own. Served from the bench's own event loop (which also watches every
// Cluster and reads the replicas' logs) it answered late whenever the bench worked, and at 6,000-30,000 Clusters on a
// loaded machine the reconcilers' 1 s probes timed out for reasons that were the bench's (docs/sharding.md, "Bench").
// The process counts the probes and remembers, per failing Cluster, when the failure that crossed the threshold was
// answered (this machine's clock, the same as the bench's).
import { spawn, type ChildProcess } from 'node:child_process';

const SERVER = `
const { createServer } = require('node:http');
const threshold = Number(process.argv[1]);
let failing = new Set();
const served = new Map();
const thresholdAt = new Map();
let probes = 0;
let port = 0;
const server = createServer((req, res) => {
  probes++;
  const i = Number((/^\\/c\\/(\\d+)/.exec(req.url || '') || [])[1] ?? -1);
  const fails = failing.has(i);
  if (fails) {
    const n = (served.get(i) || 0) + 1;
    served.set(i, n);
    if (n === threshold) thresholdAt.set(i, Date.now());
  }
  res.writeHead(fails ? 500 : 200).end();
});
server.keepAliveTimeout = 60000;
const listen = (p, done) => server.listen(p, '127.0.0.1', () => { port = server.address().port; done(); });
process.on('message', (m) => {
  const reply = (extra) => process.send({ id: m.id, ...extra });
  if (m.op === 'fail') { failing = new Set(m.indices); reply({}); }
  else if (m.op === 'stats') reply({ probes, thresholdAt: [...thresholdAt] });
  else if (m.op === 'close') { server.closeAllConnections(); server.close(() => reply({})); }
  else if (m.op === 'listen') listen(port, () => reply({}));
});
process.on('disconnect', () => process.exit(0));
listen(0, () => process.send({ port }));
`;

export interface ProbeTarget {
  port: number;
  /** The Clusters (by index) that answer 500 from now on; the others 200. */
  setFailing(indices: Iterable<number>): Promise<void>;
  /** Probes answered so far, and per failing Cluster when its failureThreshold-th failure was answered (epoch ms). */
  stats(): Promise<{ probes: number; thresholdAt: Map<number, number> }>;
  /** Stops answering: the server closed and its connections cut (the prober partitioned). */
  close(): Promise<void>;
  /** Answers again, on the same port. */
  listen(): Promise<void>;
  stop(): void;
}

interface Reply {
  id?: number;
  port?: number;
  probes?: number;
  thresholdAt?: [number, number][];
}

export async function startProbeTarget(failureThreshold: number): Promise<ProbeTarget> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SERVER, String(failureThreshold)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (r: Reply) => void>();
  let next = 0;
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the probe target exited (${code}) before it listened`)));
    child.once('message', (m: Reply) => resolve(m.port!));
  });
  child.on('message', (m: Reply) => {
    if (m.id === undefined) return;
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  const ask = (op: string, extra: object = {}): Promise<Reply> =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null) return reject(new Error('the probe target has exited'));
      const id = next++;
      waiting.set(id, resolve);
      child.send({ id, op, ...extra });
    });
  return {
    port,
    setFailing: async (indices) => void (await ask('fail', { indices: [...indices] })),
    stats: async () => {
      const r = await ask('stats');
      return { probes: r.probes ?? 0, thresholdAt: new Map(r.thresholdAt ?? []) };
    },
    close: async () => void (await ask('close')),
    listen: async () => void (await ask('listen')),
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
    },
  };
}
