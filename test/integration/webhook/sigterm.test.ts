// The real CLI (`cluster-probe serve`, spawned as a child process): `--make-certs` on an empty directory, then
// SIGTERM in the middle of load: every request that was sent gets its answer, and the process exits 0.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { clusterReview, httpsRequest, postReview, RequestError, waitFor } from './helpers.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const runCli = path.join(import.meta.dirname, 'run-cli.ts');

interface Served {
  child: ChildProcess;
  port: number;
  logs: Record<string, unknown>[];
  exited: Promise<number | null>;
}

async function serve(certDir: string, extra: string[] = []): Promise<Served> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', runCli, 'serve', '--port', '0', '--cert-dir', certDir, '--make-certs', ...extra],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const logs: Record<string, unknown>[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 20 s: ${stderr}`)), 20_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      logs.push(entry);
      if (entry.msg === 'webhook listening' && typeof entry.url === 'string') {
        clearTimeout(timer);
        resolve(Number(new URL(entry.url).port));
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return { child, port, logs, exited };
}

describe('cluster-probe serve (child process)', function () {
  this.timeout(60_000);
  let dir: string;
  let served: Served | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cluster-probe-serve-'));
  });
  afterEach(async () => {
    if (served && served.child.exitCode === null) served.child.kill('SIGKILL');
    served = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('makes certificates on a fresh directory and answers over HTTPS with them', async () => {
    served = await serve(path.join(dir, 'certs'));
    const ca = await readFile(path.join(dir, 'certs', 'ca.crt'), 'utf8');
    const res = await httpsRequest({ port: served.port, ca, path: '/readyz' });
    expect([res.status, res.body]).to.deep.equal([200, 'ok']);
    expect(served.logs.map((l) => l.msg)).to.include('made a development CA and serving certificate');
    const text = JSON.stringify(served.logs);
    expect(text).to.not.contain('PRIVATE KEY');
    expect(text).to.not.contain('BEGIN CERTIFICATE');
    served.child.kill('SIGTERM');
    expect(await served.exited).to.equal(0);
  });

  it('finishes every request in flight on SIGTERM and exits 0', async () => {
    served = await serve(path.join(dir, 'certs'), ['--shutdown-delay', '0.5']);
    const { port } = served;
    const ca = await readFile(path.join(dir, 'certs', 'ca.crt'), 'utf8');
    const agent = new https.Agent({ keepAlive: true, maxSockets: 16 });
    let answered = 0;
    let answeredAfterSignal = 0;
    let refused = 0;
    let signalled = false;
    const dropped: string[] = [];
    const worker = async (id: number) => {
      for (let i = 0; i < 20_000; i++) {
        const uid = `w${id}-${i}`;
        try {
          const res = await postReview(port, ca, i % 2 ? '/mutate' : '/validate', clusterReview(uid), agent);
          const body = JSON.parse(res.body) as { response?: { uid?: string } };
          if (res.status !== 200 || body.response?.uid !== uid) dropped.push(`${uid}: ${res.status}`);
          answered++;
          if (signalled) answeredAfterSignal++;
        } catch (err) {
          // Refused, or reset before the TLS handshake finished (a connection still in the listen backlog when the
          // listener closed), means nothing was sent: the way a stopped pod looks. Anything else (a reset or a
          // hang-up on an established connection) is a request that was sent and lost.
          if (err instanceof RequestError && !err.sent) {
            refused++;
            return;
          }
          dropped.push(`${uid}: ${(err as Error).message}`);
          return;
        }
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, (_, id) => worker(id)));
    await waitFor(() => answered > 200);
    signalled = true;
    served.child.kill('SIGTERM');
    const code = await served.exited;
    await load;
    agent.destroy();
    expect(dropped).to.deep.equal([]);
    expect(code).to.equal(0);
    expect(answeredAfterSignal, 'it kept answering while draining').to.be.greaterThan(0);
    expect(refused, 'every worker eventually found the listener closed').to.equal(16);
    expect(served.logs.map((l) => l.msg)).to.include.members(['stop requested', 'webhook stopped']);
  });
});
