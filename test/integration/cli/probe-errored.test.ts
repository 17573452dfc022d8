// `cluster-probe probe` against a target whose answer cannot be read to the end (200, then a reset in the body): the
// kubelet's errored probe. The command says so, in its own words, with the attempts, and exits 3: neither a verdict
// (0, 1) nor a misconfigured probe (2), which a script must be able to tell apart.
import net from 'node:net';
import { expect } from 'chai';
import { EXIT_ERRORED, probeCommand, type Io } from '../../../src/cli/probe.js';
import { BODY_SENT, resettingServer } from '../probe/servers.js';

function capture(): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      readFile: () => {
        throw new Error('no file is read here');
      },
    },
    out: () => out,
    err: () => err,
  };
}

describe('cluster-probe probe: an errored probe', () => {
  let target: ReturnType<typeof resettingServer>;
  let url: string;

  before(async () => {
    target = resettingServer();
    await new Promise<void>((r) => target.server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(target.server.address() as net.AddressInfo).port}/healthz`;
  });
  after(() => new Promise<void>((r) => target.server.close(() => r())));

  it('exits 3 and says the answer could not be read, after 3 attempts, in text', async () => {
    const before = target.requests();
    const c = capture();
    const code = await probeCommand({ url, timeout: '5' }, c.io);
    expect(code).to.equal(EXIT_ERRORED).and.equal(3);
    expect(c.out()).to.match(/^Result: {3}errored after 3 attempt\(s\): the answer could not be read, not a verdict/m);
    expect(target.requests() - before).to.equal(3);
    expect(c.err()).to.equal('');
  });

  it('gives the code and the attempts in JSON', async () => {
    const c = capture();
    const code = await probeCommand({ url, timeout: '5', output: 'json' }, c.io);
    expect(code).to.equal(3);
    const doc = JSON.parse(c.out()) as Record<string, unknown>;
    expect(doc).to.include({ result: 'error', code: 'ProbeErrored', attempts: 3 });
    expect(doc['message']).to.be.a('string').and.not.include(BODY_SENT);
  });
});
