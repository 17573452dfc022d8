// freePort hands out a port below the kernel's ephemeral range, once per process: a port taken by listen(0) is one the
// kernel also gives outgoing connections, and a kube-apiserver dialling its etcd took one before it was bound (CI).
import { createServer, connect, type Server } from 'node:net';
import { expect } from 'chai';
import { ephemeralPortRange, freePort, FREE_PORT_FLOOR } from '../../../src/dev/loopback.js';

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('freePort (src/dev/loopback.ts)', () => {
  it('reads the ephemeral range, and falls back to Linux default on text it cannot read', () => {
    expect(ephemeralPortRange('32768\t60999\n')).to.deep.equal({ low: 32768, high: 60999 });
    expect(ephemeralPortRange('1024 65535')).to.deep.equal({ low: 1024, high: 65535 });
    expect(ephemeralPortRange('')).to.deep.equal({ low: 32768, high: 60999 });
    expect(ephemeralPortRange('garbage')).to.deep.equal({ low: 32768, high: 60999 });
    expect(ephemeralPortRange('60999 32768')).to.deep.equal({ low: 32768, high: 60999 });
  });

  it('gives 200 distinct ports, all below the ephemeral range and bindable', async () => {
    const { low } = ephemeralPortRange();
    const ports: number[] = [];
    for (let i = 0; i < 200; i++) ports.push(await freePort());
    expect(new Set(ports).size).to.equal(200);
    if (low - FREE_PORT_FLOOR > 1000) {
      for (const port of ports) expect(port).to.be.within(FREE_PORT_FLOOR, low - 1);
    }
    const servers = await Promise.all(ports.slice(0, 20).map(listen));
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  it('never hands out a port an outgoing connection holds, nor one already listened on, nor one twice', async () => {
    // The port an outgoing connection was given and a listener's port: a random source aimed at each in turn.
    const listener = await listen(FREE_PORT_FLOOR + 1);
    const target = listener.address() as { port: number };
    const client = connect(target.port, '127.0.0.1');
    await new Promise((r) => client.once('connect', r));
    const taken = [target.port, client.localPort!];
    let i = 0;
    const aimed = () => {
      const port = taken[i++ % taken.length]!;
      return (port - FREE_PORT_FLOOR) / (ephemeralPortRange().low - FREE_PORT_FLOOR);
    };
    try {
      const port = await freePort(aimed);
      expect(taken).to.not.include(port);
      // A source that always names the same port: handed out once, then never again in this process.
      const fixed = () => 0.5;
      const first = await freePort(fixed);
      const second = await freePort(fixed);
      expect(second).to.not.equal(first);
    } finally {
      client.destroy();
      await new Promise((r) => listener.close(r));
    }
  });
});
