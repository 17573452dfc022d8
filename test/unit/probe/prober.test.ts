// The stateless prober's configuration checks: one handler, host from apiEndpoint, the version in the User-Agent.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { handlerOf, hostOfEndpoint, PROBE_VERSION, runProbe, USER_AGENT } from '../../../packages/probe/src/index.js';

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
