// Hostile input against the real CLI: `cluster-probe serve` under a 256 MiB heap answers 100 reviews, each carrying
// a different 2-3 MB string in a field the rules look at (spec.apiEndpoint every other time), on /mutate and
// /validate over TLS, and must neither die nor keep those strings: RSS stays bounded and a normal review still works.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { clusterReview, postReview } from './helpers.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const runCli = path.join(import.meta.dirname, 'run-cli.ts');
const HEAP_MIB = 256;
const RSS_LIMIT_MIB = Number(process.env.HOSTILE_RSS_LIMIT ?? 400);
const REVIEWS = 100;

interface Served {
  child: ChildProcess;
  port: number;
  stderr: () => string;
  exited: Promise<number | null>;
}

async function serveWithSmallHeap(certDir: string): Promise<Served> {
  const child = spawn(
    process.execPath,
    [
      `--max-old-space-size=${HEAP_MIB}`,
      '--import',
      'tsx',
      runCli,
      'serve',
      '--port',
      '0',
      '--cert-dir',
      certDir,
      '--make-certs',
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // never leave a server behind when the test gives up on it
      reject(new Error(`serve did not start within 30 s: ${stderr}`));
    }, 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.includes('"webhook listening"')) return;
      const entry = JSON.parse(line) as { url: string };
      clearTimeout(timer);
      resolve(Number(new URL(entry.url).port));
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return { child, port, stderr: () => stderr, exited };
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  return kb / 1024;
}

/** A string of `bytes` lowercase hex characters: valid in names, hosts and base64, unique, and incompressible. */
function hostileString(bytes: number): string {
  return randomBytes(bytes / 2).toString('hex');
}

interface Review {
  request: { object: { metadata: Record<string, unknown>; spec: Record<string, unknown> } };
}

// Each puts the hostile string `s` where one of the rules (and, today, a memo) looks at it.
const TARGETS: Record<string, (review: Review, s: string, i: number) => void> = {
  'spec.apiEndpoint': (r, s) => (r.request.object.spec.apiEndpoint = `https://${s}:6443`),
  'probe host': (r, s) => (r.request.object.spec.livenessProbe = { tcpSocket: { host: s, port: 6443 } }),
  'probe port name': (r, s) => (r.request.object.spec.livenessProbe = { tcpSocket: { port: s } }),
  // A short prefix cut from a huge key: a memo keyed by the prefix must not keep the key it was cut from.
  'taint key': (r, s, i) =>
    (r.request.object.spec.taints = [{ key: `prefix-${i}-abcdefghij.example.com/${s}`, effect: 'NoSchedule' }]),
  'taint value': (r, s) =>
    (r.request.object.spec.taints = [{ key: 'example.com/maintenance', value: s, effect: 'NoSchedule' }]),
  'header name': (r, s) =>
    (r.request.object.spec.livenessProbe = { httpGet: { port: 80, httpHeaders: [{ name: s, value: 'x' }] } }),
  caBundle: (r, s) => (r.request.object.spec.livenessProbe = { httpGet: { port: 443, scheme: 'HTTPS', caBundle: s } }),
  'resource model quantity': (r, s) =>
    (r.request.object.spec.resourceModels = [{ grade: 0, ranges: [{ name: 'cpu', min: '0', max: s }] }]),
  'legacy annotation url': (r, s) =>
    (r.request.object.metadata.annotations = {
      'cluster.karmada.io/health-checker': JSON.stringify({ url: `https://${s}/healthz` }),
    }),
  'spec.proxyURL': (r, s) => (r.request.object.spec.proxyURL = `http://${s}:3128`),
};
const targetNames = Object.keys(TARGETS);

function hostileReview(i: number): { review: Review; field: string } {
  const review = clusterReview(`hostile-${i}`) as Review;
  // 2 MB to 2.8 MB: under the 3 MiB body limit, so every review is read and handled.
  const s = hostileString(2_000_000 + i * 8_000);
  const field = i % 2 === 0 ? 'spec.apiEndpoint' : (targetNames[(i >> 1) % targetNames.length] as string);
  TARGETS[field]!(review, s, i);
  return { review, field };
}

describe('cluster-probe serve under hostile input (child process, 256 MiB heap)', function () {
  this.timeout(600_000);
  let dir: string;
  let served: Served | undefined;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cluster-probe-hostile-'));
  });
  after(async () => {
    if (served && served.child.exitCode === null) {
      served.child.kill('SIGKILL');
      await served.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 100 reviews of distinct multi-megabyte strings on both endpoints with RSS bounded, then a normal one', async () => {
    served = await serveWithSmallHeap(path.join(dir, 'certs'));
    const { child, port } = served;
    const ca = await readFile(path.join(dir, 'certs', 'ca.crt'), 'utf8');
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    let peak = await rssMiB(child.pid!);
    const started = peak;
    const admitted: string[] = [];
    try {
      for (let i = 0; i < REVIEWS; i++) {
        const { review, field } = hostileReview(i);
        const body = JSON.stringify(review);
        for (const endpoint of ['/mutate', '/validate'] as const) {
          let res;
          try {
            res = await postReview(port, ca, endpoint, body, agent);
          } catch (err) {
            const code =
              child.exitCode ?? (await Promise.race([served.exited, new Promise((r) => setTimeout(r, 2000))]));
            throw new Error(
              `review ${i} (${field}) on ${endpoint}: ${(err as Error).message}; serve exit ${String(code)}; ` +
                `peak RSS ${peak.toFixed(0)} MiB; stderr: ${served.stderr()}`,
            );
          }
          expect(res.status, `review ${i} (${field}) on ${endpoint}`).to.equal(200);
          const answer = JSON.parse(res.body) as { response: { uid: string; allowed: boolean } };
          expect(answer.response.uid).to.equal(`hostile-${i}`);
          if (endpoint === '/validate' && answer.response.allowed) admitted.push(`review ${i} (${field})`);
        }
        peak = Math.max(peak, await rssMiB(child.pid!));
        expect(peak, `RSS after review ${i} (${field}); ${started.toFixed(0)} MiB at start`).to.be.below(RSS_LIMIT_MIB);
      }
      expect(child.exitCode, 'serve is still running').to.equal(null);
      // Every field above has a length limit far below 2 MB, so each hostile review is denied.
      expect(admitted, 'hostile reviews admitted by /validate').to.deep.equal([]);

      const normal = clusterReview('normal-after-hostile');
      const mutated = await postReview(port, ca, '/mutate', normal, agent);
      const mutation = JSON.parse(mutated.body) as { response: { allowed: boolean; patch?: string } };
      expect(mutation.response.allowed).to.equal(true);
      const patch = JSON.parse(Buffer.from(mutation.response.patch ?? '', 'base64').toString('utf8')) as {
        path: string;
      }[];
      expect(patch.map((p) => p.path)).to.include('/spec/livenessProbe/periodSeconds');
      const validated = await postReview(port, ca, '/validate', normal, agent);
      const verdict = JSON.parse(validated.body) as { response: { uid: string; allowed: boolean } };
      expect(verdict.response).to.include({ uid: 'normal-after-hostile', allowed: true });
    } finally {
      agent.destroy();
    }
    process.stdout.write(`      RSS: ${started.toFixed(0)} MiB at start, peak ${peak.toFixed(0)} MiB\n`);
  });
});
