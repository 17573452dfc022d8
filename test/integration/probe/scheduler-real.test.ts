// The scheduler on the real clock with real probes: 300 HTTP targets at a 1 s period against one local server, a
// transition when the server turns unhealthy, every run on a new connection, and a stop that leaves nothing running.
import http from 'node:http';
import { expect } from 'chai';
import { ProbeScheduler, runProbe, type LivenessProbe, type Transition } from '../../../src/probe/index.js';
import { close, listen } from './servers.js';

describe('probe scheduler with real probes', function () {
  this.timeout(15_000);
  let server: http.Server;
  let port: number;
  let healthy = true;
  let connections = 0;

  before(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(healthy ? 200 : 503);
      res.end();
    });
    server.on('connection', () => connections++);
    port = await listen(server);
  });
  after(() => close(server));

  it('probes every target each period, reports the unhealthy turn once per target, and stops cleanly', async () => {
    const transitions = new Map<string, Transition[]>();
    const late: number[] = [];
    const runs = new Map<string, number>();
    const s = new ProbeScheduler({
      concurrency: 64,
      onStart: (_k, l) => late.push(l),
      onResult: (k) => runs.set(k, (runs.get(k) ?? 0) + 1),
      onTransition: (k, t) => transitions.set(k, [...(transitions.get(k) ?? []), t]),
    });
    const probe: LivenessProbe = {
      httpGet: { host: '127.0.0.1', port, path: '/healthz' },
      periodSeconds: 1,
      failureThreshold: 2,
    };
    for (let i = 0; i < 300; i++) s.add(`member-${i}`, probe, (signal) => runProbe(probe, { signal }));
    await new Promise((r) => setTimeout(r, 2_500));
    healthy = false;
    await new Promise((r) => setTimeout(r, 3_500));
    await s.stop();
    expect(s.inFlight).to.equal(0);
    for (let i = 0; i < 300; i++) {
      const seen = (transitions.get(`member-${i}`) ?? []).map((t) => t.to);
      expect(seen, `member-${i}`).to.deep.equal(['success', 'failure']);
      expect(runs.get(`member-${i}`)).to.be.within(3, 7);
    }
    const total = [...runs.values()].reduce((a, b) => a + b, 0);
    expect(connections).to.be.at.least(total);
    late.sort((a, b) => a - b);
    // The median only: tail lateness belongs to the bench (other load on the machine inflates it here).
    expect(late[Math.floor(late.length * 0.5)]).to.be.below(100);
  });
});
