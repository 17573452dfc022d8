// The tcpSocket handler against a real listener: connect-then-close passes, a closed port and an unknown name fail.
import net from 'node:net';
import { expect } from 'chai';
import { runProbe } from '../../../packages/probe/src/index.js';
import { close, closedPort, listen } from './servers.js';

describe('tcpSocket probe', function () {
  this.timeout(10_000);
  let server: net.Server;
  let port: number;
  let accepted = 0;

  before(async () => {
    server = net.createServer((s) => {
      accepted++;
      s.on('error', () => undefined);
    });
    port = await listen(server);
  });
  after(() => close(server));

  it('passes when the port accepts a connection, and closes it', async () => {
    const res = await runProbe({ tcpSocket: { host: '127.0.0.1', port } });
    expect(res.result).to.equal('success');
    expect(accepted).to.be.at.least(1);
  });

  it('fails on a closed port with the kubelet dial message', async () => {
    const free = await closedPort();
    const res = await runProbe({ tcpSocket: { host: '127.0.0.1', port: free } });
    expect(res).to.include({ result: 'failure', message: `dial tcp 127.0.0.1:${free}: connect: connection refused` });
  });

  it('fails on a name that does not resolve', async () => {
    const res = await runProbe({ tcpSocket: { host: 'member.invalid', port: 6443 } });
    expect(res).to.include({ result: 'failure', message: 'dial tcp: lookup member.invalid: no such host' });
  });

  it('uses the apiEndpoint host when none is given', async () => {
    const res = await runProbe({ tcpSocket: { port } }, { apiEndpoint: `https://127.0.0.1:${port}` });
    expect(res.result).to.equal('success');
  });

  it('passes when the listener accepts and resets at once: the kubelet only dials, and the dial succeeded', async () => {
    const resetting = net.createServer((s) => {
      s.on('error', () => undefined);
      s.resetAndDestroy();
    });
    const p = await listen(resetting);
    try {
      for (let i = 0; i < 3; i++)
        expect((await runProbe({ tcpSocket: { host: '127.0.0.1', port: p } })).result).to.equal('success');
    } finally {
      await close(resetting);
    }
  });
});
