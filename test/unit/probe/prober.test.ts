// The stateless prober's configuration checks: one handler, host from apiEndpoint, the version in the User-Agent.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { handlerOf, hostOfEndpoint, PROBE_VERSION, runProbe, USER_AGENT } from '../../../packages/probe/src/index.js';
import { codedError, configError, errored, failure, success } from '../../../packages/probe/src/handler.js';
import type { HandlerResult } from '../../../packages/probe/src/handler.js';
import { MAX_PROBE_ATTEMPTS, withRetries } from '../../../packages/probe/src/prober.js';

/** An attempt function that gives `results` in turn (the last one again past the end) and counts its calls. */
function attempts(
  results: HandlerResult[],
  onCall?: (n: number) => void,
): { run: () => Promise<HandlerResult>; calls: number } {
  const state = {
    calls: 0,
    run: (): Promise<HandlerResult> => {
      state.calls++;
      onCall?.(state.calls);
      return Promise.resolve(results[Math.min(state.calls, results.length) - 1]!);
    },
  };
  return state;
}

describe('prober configuration', () => {
  it('requires exactly one handler', async () => {
    expect(handlerOf({}).ok).to.equal(false);
    expect(handlerOf({ httpGet: { port: 80 }, tcpSocket: { port: 80 } })).to.deep.include({ ok: false });
    const res = await runProbe({ periodSeconds: 10 });
    expect(res.result).to.equal('error');
    expect(res.message).to.contain('must specify a handler type');
  });

  it('takes the host from spec.apiEndpoint when the handler names none', () => {
    expect(hostOfEndpoint('https://10.0.0.1:6443')).to.equal('10.0.0.1');
    expect(hostOfEndpoint('https://[fd00::1]:6443')).to.equal('fd00::1');
    expect(hostOfEndpoint('not a url')).to.equal(undefined);
  });

  it('is a configuration error when host is omitted and there is no apiEndpoint', async () => {
    const res = await runProbe({ tcpSocket: { port: 443 } });
    expect(res.result).to.equal('error');
    expect(res.message).to.contain('spec.apiEndpoint is not set');
  });

  it('refuses a named port for grpc', async () => {
    const res = await runProbe({ grpc: { host: '127.0.0.1', port: 'grpc' as unknown as number } });
    expect(res.result).to.equal('error');
  });

  it('is a configuration error when caBundle is not base64 PEM', async () => {
    const res = await runProbe({
      httpGet: { scheme: 'HTTPS', host: '127.0.0.1', port: 9, caBundle: Buffer.from('hello').toString('base64') },
    });
    expect(res.result).to.equal('error');
    expect(res.message).to.contain('httpGet.caBundle');
    const notB64 = await runProbe({ httpGet: { scheme: 'HTTPS', host: '127.0.0.1', port: 9, caBundle: '%%%' } });
    expect(notB64.result).to.equal('error');
  });

  it('marks a caBundle it cannot use with a code and the detail without the field, for callers to tell apart', async () => {
    const notB64 = await runProbe({ httpGet: { scheme: 'HTTPS', host: '127.0.0.1', port: 9, caBundle: '%%%' } });
    expect(notB64).to.deep.include({
      result: 'error',
      code: 'InvalidCABundle',
      message: 'httpGet.caBundle: not valid base64',
      detail: 'not valid base64',
    });
    const badUrl = await runProbe({ httpGet: { scheme: 'HTTPS', host: 'a b', port: 9 } });
    expect(badUrl.result).to.equal('error');
    expect(badUrl.code).to.equal(undefined);
  });

  it('sends a User-Agent named for this project, at the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(PROBE_VERSION).to.equal(pkg.version);
    expect(USER_AGENT).to.equal(`karmada-cluster-probe/${pkg.version}`);
  });
});

describe("prober retries an errored probe (the kubelet's runProbeWithRetries)", () => {
  it('makes 3 attempts in all, at once, and gives the last errored result when every one errored', async () => {
    expect(MAX_PROBE_ATTEMPTS).to.equal(3);
    const a = attempts([errored('read body: unexpected EOF (1)'), errored('(2)'), errored('(3)'), success('x')]);
    const { out, attempts: n } = await withRetries(a.run, undefined);
    expect(a.calls).to.equal(3);
    expect(n).to.equal(3);
    expect(out).to.deep.equal({ result: 'error', code: 'ProbeErrored', message: '(3)' });
  });

  it('stops at the first attempt that is not errored, whatever it says', async () => {
    const ok = attempts([errored('e'), success('200 OK')]);
    expect(await withRetries(ok.run, undefined)).to.deep.equal({ out: success('200 OK'), attempts: 2 });
    const failed = attempts([errored('e'), errored('e'), failure('HTTP probe failed with statuscode: 500')]);
    expect((await withRetries(failed.run, undefined)).out.result).to.equal('failure');
    expect(failed.calls).to.equal(3);
    const once = attempts([failure('dial tcp 127.0.0.1:9: connect: connection refused')]);
    expect(await withRetries(once.run, undefined)).to.include({ attempts: 1 });
  });

  it('never retries a configuration error, coded or not', async () => {
    const plain = attempts([configError('livenessProbe.httpGet.port: no such named port "web"')]);
    expect(await withRetries(plain.run, undefined)).to.include({ attempts: 1 });
    const coded = attempts([codedError('InvalidCABundle', 'httpGet.caBundle', 'not valid base64')]);
    expect(await withRetries(coded.run, undefined)).to.include({ attempts: 1 });
  });

  it('stops retrying at once when the signal is aborted (a stopped worker waits for no more attempts)', async () => {
    const before = new AbortController();
    before.abort();
    const a = attempts([errored('e')]);
    expect(await withRetries(a.run, before.signal)).to.include({ attempts: 1 });
    // Aborted while the second attempt runs: no third.
    const during = new AbortController();
    const b = attempts([errored('e')], (n) => {
      if (n === 2) during.abort();
    });
    const out = await withRetries(b.run, during.signal);
    expect(out.attempts).to.equal(2);
    expect(b.calls).to.equal(2);
  });

  it('reports no attempts field for a run of one attempt (a configuration error from runProbe)', async () => {
    const res = await runProbe({ tcpSocket: { port: 443 } });
    expect(res.result).to.equal('error');
    expect(res).not.to.have.property('attempts');
  });
});
