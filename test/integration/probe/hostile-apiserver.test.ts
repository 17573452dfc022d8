// The apiServer probe against a hostile member apiserver on 127.0.0.1: a page with far more items than asked for,
// one enormous object, a page larger than the per-response budget, a `continue` token that never ends (small pages
// and fat ones), and a body that drips a byte at a time. Each probe runs in a child process of its own, so the
// memory it reports is the probe's: it must fail with a message that names the bound and its limit, and its heap and
// RSS must stay within a few MiB of where they started, whatever the member sends.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { API_SERVER_READ_BUDGET } from '../../../packages/probe/src/index.js';
import { close, listen } from './servers.js';

const CHILD = fileURLToPath(new URL('./hostile-probe-child.ts', import.meta.url));
const MiB = 1024 * 1024;
/** What a probe may add to its process, far below the hundreds of MiB one hostile member used to cost. */
const MAX_GROWTH = 48 * MiB;
/** The child's V8 heap sizes, in MiB (see runInChild). */
const CHILD_HEAP_FLAGS = ['--max-semi-space-size=2', '--max-old-space-size=96'];

interface ChildReport {
  result: string;
  message: string;
  ms: number;
  rssGrowth: number;
  heapGrowth: number;
}

function runInChild(probe: unknown, ctx: unknown): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    // The child's heap is sized small, young and old generation: under this allocation rate V8 otherwise grows its
    // young generation to 16-32 MiB and lets promoted garbage pile up to its old generation's first limit before a
    // full collection (sizes that differ between Node 20 and 24, and with load; once 82 MiB in CI). Those are the
    // process's, shared by every probe, not what one probe holds; a probe that held a page would still exceed the
    // bound below, or run out of heap.
    const child = spawn(process.execPath, [...CHILD_HEAP_FLAGS, '--import', 'tsx', CHILD], {
      env: { ...process.env, HOSTILE_PROBE: JSON.stringify({ probe, ctx }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || line === '') reject(new Error(`probe child exited ${String(code)}: ${err.slice(-2000)}`));
      else resolve(JSON.parse(line) as ChildReport);
    });
  });
}

const node = (i: number, pad = ''): string =>
  JSON.stringify({
    metadata: { name: `n${i}`, annotations: pad === '' ? undefined : { pad } },
    status: { conditions: [{ type: 'Ready', status: 'False' }] },
  });

function page(items: string[], cont?: string): Buffer {
  const meta = JSON.stringify({ resourceVersion: '1', ...(cont !== undefined ? { continue: cont } : {}) });
  return Buffer.from(`{"kind":"NodeList","apiVersion":"v1","metadata":${meta},"items":[${items.join(',')}]}`);
}

/** Writes `chunks()` with backpressure until it returns undefined or the client goes away. */
function stream(res: http.ServerResponse, next: () => Buffer | undefined): void {
  const pump = (): void => {
    for (;;) {
      if (res.destroyed) return;
      const chunk = next();
      if (chunk === undefined) {
        res.end();
        return;
      }
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

describe('apiServer probe against a hostile member apiserver', function () {
  this.timeout(120_000);
  let server: http.Server;
  let base = '';
  const closedAt: Record<string, number> = {};
  let pagesServed = 0;

  // Bodies built once: the member's cost is not what is measured.
  const smallPage = page(
    Array.from({ length: 500 }, (_, i) => node(i)),
    'again',
  );
  const fatPage = page(
    Array.from({ length: 500 }, (_, i) => node(i, 'p'.repeat(60 * 1024))),
    'again',
  );
  const manyItems = page(Array.from({ length: 250_000 }, (_, i) => node(i)));
  const bigPageItem = node(0, 'q'.repeat(80 * 1024));

  before(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const mode = url.pathname.split('/')[1] ?? '';
      if (url.pathname.endsWith('/readyz')) {
        res.end('ok');
        return;
      }
      res.on('close', () => (closedAt[mode] = Date.now()));
      res.writeHead(200, { 'content-type': 'application/json' });
      switch (mode) {
        case 'many-items': // 250,000 items where 500 were asked for, in one 30 MB page
          res.end(manyItems);
          return;
        case 'huge-item': {
          // One Node whose annotation never ends.
          let first = true;
          const filler = Buffer.alloc(64 * 1024, 'x');
          stream(res, () => {
            if (!first) return filler;
            first = false;
            return Buffer.from('{"kind":"NodeList","items":[{"metadata":{"name":"n","annotations":{"a":"');
          });
          return;
        }
        case 'huge-page': {
          // 500 items of 80 KiB each: every item and the count are within bounds, the page (40 MB) is not.
          let sent = -1;
          stream(res, () => {
            sent++;
            if (sent === 0) return Buffer.from('{"kind":"NodeList","items":[');
            if (sent <= 500) return Buffer.from(sent === 1 ? bigPageItem : `,${bigPageItem}`);
            if (sent === 501) return Buffer.from(']}');
            return undefined;
          });
          return;
        }
        case 'endless-continue': // a small page that always has a next one
          pagesServed++;
          res.end(smallPage);
          return;
        case 'endless-fat': // 30 MB pages that always have a next one
          pagesServed++;
          res.end(fatPage);
          return;
        case 'slow-drip': {
          // A page that arrives one byte every 50 ms.
          const body = page([node(0)], 'again');
          let i = 0;
          res.write(body.subarray(i, ++i));
          const timer = setInterval(() => {
            if (res.destroyed || i >= body.length) {
              clearInterval(timer);
              return;
            }
            res.write(body.subarray(i, ++i));
          }, 50);
          res.on('close', () => clearInterval(timer));
          return;
        }
        default:
          res.writeHead(404);
          res.end();
      }
    });
    const port = await listen(server);
    base = `http://127.0.0.1:${port}`;
  });
  after(() => close(server));

  const probeOf = (mode: string, minReadyNodes = 1, timeoutSeconds = 60) =>
    runInChild({ apiServer: { minReadyNodes }, timeoutSeconds }, { apiEndpoint: `${base}/${mode}` });

  const expectBounded = (r: ChildReport): void => {
    expect(r.heapGrowth, `heap grew by ${(r.heapGrowth / MiB).toFixed(1)} MiB`).to.be.below(MAX_GROWTH);
    expect(r.rssGrowth, `RSS grew by ${(r.rssGrowth / MiB).toFixed(1)} MiB`).to.be.below(MAX_GROWTH);
  };

  it('fails on a page with more items than the limit asked for, without decoding them all', async () => {
    const r = await probeOf('many-items', 1000);
    expect(r).to.include({
      result: 'failure',
      message: `listing nodes: the member returned more than ${API_SERVER_READ_BUDGET.itemsPerPage} items in one page (limit=${API_SERVER_READ_BUDGET.itemsPerPage}); read budget itemsPerPage exceeded`,
    });
    expectBounded(r);
  });

  it('fails on an object larger than the per-object budget, having read little more than it', async () => {
    const r = await probeOf('huge-item');
    expect(r).to.include({
      result: 'failure',
      message: `listing nodes: an object is larger than ${API_SERVER_READ_BUDGET.maxObjectBytes} bytes; read budget maxObjectBytes exceeded`,
    });
    expectBounded(r);
  });

  it('fails on a response larger than the per-response budget, holding one object at a time', async () => {
    const r = await probeOf('huge-page', 1000);
    expect(r).to.include({
      result: 'failure',
      message: `listing nodes: a response is larger than ${API_SERVER_READ_BUDGET.maxResponseBytes} bytes; read budget maxResponseBytes exceeded`,
    });
    expectBounded(r);
  });

  it('stops following an endless continue token after the page budget', async () => {
    pagesServed = 0;
    const r = await probeOf('endless-continue');
    expect(r).to.include({
      result: 'failure',
      message: `listing nodes: the member returned a continue token after ${API_SERVER_READ_BUDGET.maxPages} pages; read budget maxPages exceeded`,
    });
    expect(pagesServed).to.equal(API_SERVER_READ_BUDGET.maxPages);
    expectBounded(r);
  });

  it('stops reading fat pages after the per-probe byte budget', async () => {
    pagesServed = 0;
    const r = await probeOf('endless-fat');
    expect(r).to.include({
      result: 'failure',
      message: `listing nodes: the probe has read more than ${API_SERVER_READ_BUDGET.maxProbeBytes} bytes; read budget maxProbeBytes exceeded`,
    });
    expect(pagesServed).to.equal(Math.ceil(API_SERVER_READ_BUDGET.maxProbeBytes / fatPage.length));
    expectBounded(r);
  });

  it('gives up on a body that drips when the timeout ends, and closes the connection', async () => {
    const r = await probeOf('slow-drip', 1, 2);
    expect(r.result).to.equal('failure');
    expect(r.message).to.match(
      /^Get "http:\/\/127\.0\.0\.1:\d+\/slow-drip\/api\/v1\/nodes\?limit=500": context deadline exceeded \(Client\.Timeout or context cancellation while reading body\)$/,
    );
    // The 2 s timeout ended it (the message says so): never before it; the upper bound only catches a hang (10x).
    expect(r.ms).to.be.within(1900, 20_000);
    // The member sees the close as an event of its own, some time after the child's exit: waited for, not slept on.
    const hang = Date.now() + 10_000;
    while (closedAt['slow-drip'] === undefined && Date.now() < hang)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closedAt['slow-drip'], 'the member saw the connection closed').to.be.a('number');
    expectBounded(r);
  });
});
