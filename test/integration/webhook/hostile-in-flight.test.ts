// Memory across requests: each review body is bounded (3 MiB), and so is what all the requests being received hold
// at once. Connections that send most of a large body and then stall must not let the server buffer without end:
// past the budget a review gets 429 with a Kubernetes Status, and the budget comes back when those connections go.
import { expect } from 'chai';
import tls from 'node:tls';
import type { PemPair } from '../../../src/certs/index.js';
import { clusterReview, postReview, startTestServer, waitFor, type TestServer } from './helpers.js';

const BUDGET = 1024 * 1024;

function stall(port: number, ca: string, bytes: number): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => {
      // Declares more than it sends: the server holds what arrived and waits for the rest.
      socket.write(
        `POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${bytes + 1000}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(bytes, 0x20), () => resolve(socket));
    });
    socket.on('error', reject);
    socket.setTimeout(20_000, () => socket.destroy());
  });
}

describe('the webhook bounds the review bytes it holds across requests', function () {
  this.timeout(90_000); // catches a hang only: two waits with 30 s deadlines
  let test: TestServer;
  let ca: PemPair;

  before(async () => {
    test = await startTestServer('cluster-probe-in-flight-', { maxBufferedBodyBytes: BUDGET });
    ({ ca } = test);
  });
  after(async () => {
    await test.stop();
  });

  it('answers 429 past the budget, and serves again once the stalled bodies are gone', async () => {
    const normal = await postReview(test.port, ca.cert, '/validate', clusterReview('before'));
    expect(normal.status).to.equal(200);

    const stalled = [await stall(test.port, ca.cert, 600 * 1024), await stall(test.port, ca.cert, 300 * 1024)];
    const big = clusterReview('over', { tcpSocket: { port: 6443, host: `x${'a'.repeat(200 * 1024)}.example` } });
    let refused: Awaited<ReturnType<typeof postReview>> | undefined;
    await waitFor(async () => {
      refused = await postReview(test.port, ca.cert, '/validate', big);
      return refused.status === 429;
    });
    const status = JSON.parse(refused?.body ?? '{}') as Record<string, unknown>;
    expect(status).to.include({ kind: 'Status', status: 'Failure', reason: 'TooManyRequests', code: 429 });
    expect(String(status.message)).to.match(/review bodies/);
    expect(refused?.headers['retry-after']).to.equal('1');

    for (const s of stalled) s.destroy();
    await waitFor(async () => (await postReview(test.port, ca.cert, '/validate', big)).status === 200);
  });
});
