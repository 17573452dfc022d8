// What a plain-HTTP probe costs its process (issue 31): its own socket, no http.Agent. With `agent: false` node:http
// built a new Agent for every request (its maps, listeners and copies of the options): a quarter of what a probe
// allocated, at 1,000 probes a second (docs/reconciler.md, "Memory at 10,000"). The wire stays Go's: one connection a
// probe, `Connection: close` (http-fidelity.test.ts), with TCP_NODELAY as the Agent set it.
import http from 'node:http';
import { expect } from 'chai';
import { runProbe } from '../../../packages/probe/src/index.js';
import { close, rawServer } from './servers.js';

describe('httpGet over plain HTTP: the transport', () => {
  let srv: Awaited<ReturnType<typeof rawServer>>;
  /** The client's port of each connection the server took. */
  const ports: (number | undefined)[] = [];

  before(async () => {
    srv = await rawServer((socket) => {
      ports.push(socket.remotePort);
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
  });
  after(() => close(srv.server));

  it('builds no http.Agent for a probe, and opens a new connection for each, with Connection: close', async () => {
    // Counted, not replaced: Node's own constructor still runs if anything builds an Agent.
    const created: unknown[] = [];
    // addRequest is how node:http hands a request to an Agent (not in @types/node).
    const proto = http.Agent.prototype as unknown as { addRequest: (...a: unknown[]) => unknown };
    const original = proto.addRequest;
    proto.addRequest = function (this: http.Agent, ...args: unknown[]) {
      created.push(this);
      return original.apply(this, args);
    };
    try {
      srv.requests.length = 0;
      ports.length = 0;
      for (let i = 0; i < 3; i++) {
        const res = await runProbe({
          httpGet: { host: '127.0.0.1', port: srv.port, path: `/t/${i}` },
          timeoutSeconds: 2,
        });
        expect(res.result).to.equal('success');
      }
    } finally {
      proto.addRequest = original;
    }
    expect(created, 'requests handed to an http.Agent').to.have.length(0);
    expect(srv.requests).to.have.length(3);
    expect(new Set(ports).size, 'connections').to.equal(3);
    for (const r of srv.requests)
      expect(r.headers.filter(([n]) => n === 'Connection')).to.deep.equal([['Connection', 'close']]);
  });
});
