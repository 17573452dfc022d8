// The reconciler's /metrics served a slice at a time (issue 39): over a real socket the body is byte for byte
// registry.metrics(); a scraper that reads slowly gets all of it with back-pressure and leaves no listener behind
// (one per stall leaked before: MaxListenersExceededWarning after ten); HEAD gets the headers and no body. Gzip when
// the scraper asks (Prometheus always does; issue 50), and a scraper that reads nothing holds a bounded buffer.
import { expect } from 'chai';
import { connect } from 'node:net';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import {
  METRICS_BUFFER_BYTES,
  METRICS_MAX_CONCURRENT,
  METRICS_PIECE_BYTES,
  acceptsGzip,
  startHealthServer,
  type HealthServer,
} from '../../../src/kube/health-server.js';
import { createMetrics, writeExposition, type ReconcilerMetrics } from '../../../src/reconciler/index.js';

function fleet(n: number): ReconcilerMetrics {
  const metrics = createMetrics();
  for (let i = 0; i < n; i++) {
    const name = `member-with-a-rather-long-name-${i}`;
    metrics.perCluster.configure(name, 3, 1_700_000_000_000);
    metrics.perCluster.result(name, i % 3 === 0 ? 'failure' : 'success', 12.5);
    metrics.perCluster.held(name, i % 3 === 0 ? 'failing' : 'healthy');
  }
  return metrics;
}

async function serve(metrics: ReconcilerMetrics): Promise<HealthServer> {
  return startHealthServer({
    port: 0,
    registry: metrics.registry,
    ready: () => true,
    exposition: (write, stopped) => writeExposition(metrics, write, stopped),
  });
}

describe('health server: /metrics written a slice at a time', function () {
  this.timeout(30_000);
  let server: HealthServer | undefined;
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => void warnings.push(w);
  beforeEach(() => {
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(async () => {
    process.off('warning', onWarning);
    await server?.close();
    server = undefined;
  });

  it('serves byte for byte what registry.metrics() gives, with its content type', async () => {
    const metrics = fleet(1200);
    server = await serve(metrics);
    const { status, type, body } = await new Promise<{ status?: number; type?: string; body: string }>(
      (resolve, reject) => {
        request({ host: '127.0.0.1', port: server!.port, path: '/metrics' }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body }));
        })
          .on('error', reject)
          .end();
      },
    );
    expect(status).to.equal(200);
    expect(type).to.equal(metrics.registry.contentType);
    expect(body).to.equal(await metrics.registry.metrics());
  });

  it('gives a scraper that reads slowly all of it, through many stalls, and leaves no listener behind', async () => {
    const metrics = fleet(6000);
    const expected = Buffer.byteLength(await metrics.registry.metrics());
    server = await serve(metrics);
    const serverResponses: import('node:http').ServerResponse[] = [];
    server.server.on('request', (_req, res) => serverResponses.push(res));
    // A raw socket that takes a little, pauses, takes a little more: the server's writes fill the socket and wait.
    const socket = connect(server.port, '127.0.0.1');
    socket.setNoDelay(true);
    socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    let received = 0;
    let pauses = 0;
    let mostCloseListeners = 0;
    await new Promise<void>((resolve, reject) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > (pauses + 1) * 256 * 1024) {
          pauses++;
          for (const r of serverResponses) mostCloseListeners = Math.max(mostCloseListeners, r.listenerCount('close'));
          socket.pause();
          setTimeout(() => socket.resume(), 20);
        }
      });
      socket.on('end', resolve);
      socket.on('error', reject);
    });
    expect(pauses, 'the reader paused').to.be.above(15);
    expect(received, 'the whole body (and the head) arrived').to.be.above(expected);
    expect(warnings.map((w) => w.name)).to.not.include('MaxListenersExceededWarning');
    const [res] = serverResponses;
    expect(res?.listenerCount('drain')).to.equal(0);
    expect(res?.listenerCount('close')).to.be.at.most(2);
    expect(mostCloseListeners, 'close listeners while the scraper stalled').to.be.at.most(3);
  });

  it('answers HEAD with the headers and no body', async () => {
    const metrics = fleet(10);
    server = await serve(metrics);
    const socket = connect(server.port, '127.0.0.1');
    socket.write('HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    let text = '';
    await new Promise<void>((resolve, reject) => {
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('end', resolve);
      socket.on('error', reject);
    });
    expect(text).to.match(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).to.equal('');
  });
  it('answers gzip when asked (as Prometheus asks), identical once decoded, and plain text otherwise', async () => {
    const metrics = fleet(3000);
    server = await serve(metrics);
    const get = (encoding: string | undefined) =>
      new Promise<{ headers: import('node:http').IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        request(
          {
            host: '127.0.0.1',
            port: server!.port,
            path: '/metrics',
            headers: encoding === undefined ? {} : { 'accept-encoding': encoding },
          },
          (res) => {
            const parts: Buffer[] = [];
            res.on('data', (c: Buffer) => parts.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
          },
        )
          .on('error', reject)
          .end();
      });
    const expected = await metrics.registry.metrics();
    const zipped = await get('gzip, deflate'); // Prometheus' own header is `gzip`
    expect(zipped.headers['content-encoding']).to.equal('gzip');
    expect(zipped.headers.vary).to.equal('Accept-Encoding');
    expect(gunzipSync(zipped.body).toString()).to.equal(expected);
    expect(zipped.body.length).to.be.below(Buffer.byteLength(expected) / 5);
    for (const encoding of [undefined, 'identity', 'gzip;q=0', 'br']) {
      const plain = await get(encoding);
      expect(plain.headers['content-encoding'], String(encoding)).to.equal(undefined);
      expect(plain.body.toString(), String(encoding)).to.equal(expected);
    }
  });

  it('holds a bounded buffer for a scraper that reads nothing', async () => {
    const metrics = fleet(10_000);
    const size = Buffer.byteLength(await metrics.registry.metrics());
    expect(size, 'the exposition is larger than the bound').to.be.above(2 * METRICS_BUFFER_BYTES);
    server = await serve(metrics);
    const responses: import('node:http').ServerResponse[] = [];
    server.server.on('request', (_req, res) => responses.push(res));
    const socket = connect(server.port, '127.0.0.1');
    socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    socket.pause();
    // Wait until the server stops adding to what it holds (three readings 100 ms apart agree), then compare.
    let last = -1;
    let same = 0;
    const deadline = Date.now() + 30_000;
    while (same < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      const held = responses[0]?.writableLength ?? -1;
      same = held === last && held > 0 ? same + 1 : 0;
      last = held;
    }
    expect(same, 'the server stopped writing to a scraper that reads nothing').to.equal(3);
    // The bound, the piece written when the writer last looked (and the slice that completed it), and no more.
    expect(last).to.be.at.most(METRICS_BUFFER_BYTES + 2 * METRICS_PIECE_BYTES);
    socket.destroy();
  });

  it(`serves at most ${METRICS_MAX_CONCURRENT} scrapes at once: one more gets 503 with Retry-After, a freed slot serves again`, async () => {
    const metrics = fleet(10_000);
    server = await serve(metrics);
    const responses: import('node:http').ServerResponse[] = [];
    server.server.on('request', (_req, res) => responses.push(res));
    // Scrapers that ask for gzip (as Prometheus does) and read nothing: each holds a bounded buffer, and a slot.
    const stalled = Array.from({ length: METRICS_MAX_CONCURRENT }, () => {
      const socket = connect(server!.port, '127.0.0.1');
      socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n');
      socket.pause();
      return socket;
    });
    const deadline = Date.now() + 30_000;
    while (responses.length < METRICS_MAX_CONCURRENT && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(responses).to.have.length(METRICS_MAX_CONCURRENT);
    const status = () =>
      new Promise<{ code: number | undefined; retry: string | undefined; body: string }>((resolve, reject) => {
        request({ host: '127.0.0.1', port: server!.port, path: '/metrics' }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ code: res.statusCode, retry: res.headers['retry-after'], body }));
        })
          .on('error', reject)
          .end();
      });
    const refused = await status();
    expect(refused.code).to.equal(503);
    expect(refused.retry).to.equal('1');
    expect(refused.body).to.equal(
      `too many concurrent scrapes (at most ${METRICS_MAX_CONCURRENT}); retry when one has finished\n`,
    );
    // What the stalled gzip scrapes hold in all: the bound each, and the pieces in flight, not the exposition.
    let held = 0;
    for (const res of responses.slice(0, METRICS_MAX_CONCURRENT)) held += res.writableLength;
    expect(held).to.be.at.most(METRICS_MAX_CONCURRENT * (METRICS_BUFFER_BYTES + 2 * METRICS_PIECE_BYTES));
    stalled[0]!.destroy();
    let served: Awaited<ReturnType<typeof status>> | undefined;
    while (Date.now() < deadline) {
      served = await status();
      if (served.code === 200) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(served?.code).to.equal(200);
    expect(served?.body).to.equal(await metrics.registry.metrics());
    for (const socket of stalled) socket.destroy();
  });
});

describe('acceptsGzip', () => {
  it('takes gzip and *, unless q=0, in any case and order; an explicit gzip entry wins over *', () => {
    for (const h of [
      'gzip',
      'GZIP',
      'x-gzip',
      'deflate, gzip',
      'gzip;q=0.5',
      '*',
      'br, *;q=1',
      ' gzip ; q=1.0 ',
      'gzip, *;q=0',
      '*;q=0, gzip',
    ])
      expect(acceptsGzip(h), h).to.equal(true);
    for (const h of [
      undefined,
      '',
      'identity',
      'br',
      'gzip;q=0',
      'gzip; q=0.0',
      '*;q=0',
      '*, gzip;q=0',
      'gzip;q=0, *',
      'br, *;q=0, identity',
    ])
      expect(acceptsGzip(h), String(h)).to.equal(false);
  });
});
