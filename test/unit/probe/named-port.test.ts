// Named ports: IANA service names from the embedded table, Kubernetes' IANA_SVC_NAME syntax, and the config error.
import { expect } from 'chai';
import { isIanaServiceName, resolvePort, runProbe } from '../../../packages/probe/src/index.js';

describe('named ports', () => {
  it('resolves well-known service names', () => {
    expect(resolvePort('https', 'p')).to.deep.equal({ ok: true, port: 443 });
    expect(resolvePort('http', 'p')).to.deep.equal({ ok: true, port: 80 });
    expect(resolvePort('etcd-client', 'p')).to.deep.equal({ ok: true, port: 2379 });
  });

  it('takes numbers, and digit strings as numbers', () => {
    expect(resolvePort(8080, 'p')).to.deep.equal({ ok: true, port: 8080 });
    expect(resolvePort('6443', 'p')).to.deep.equal({ ok: true, port: 6443 });
  });

  it('refuses ports out of range in the apiserver wording', () => {
    expect(resolvePort(70000, 'spec.livenessProbe.httpGet.port')).to.deep.equal({
      ok: false,
      message: 'spec.livenessProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    });
    expect(resolvePort(0, 'p').ok).to.equal(false);
  });

  it('says a name it does not know cannot be resolved', () => {
    const r = resolvePort('my-metrics', 'livenessProbe.httpGet.port');
    expect(r.ok).to.equal(false);
    if (!r.ok) expect(r.message).to.contain('named port "my-metrics" cannot be resolved');
  });

  it('accepts extra names handed in by the caller', () => {
    expect(resolvePort('my-metrics', 'p', { 'my-metrics': 9100 })).to.deep.equal({ ok: true, port: 9100 });
  });

  it('validates IANA_SVC_NAME syntax as Kubernetes does', () => {
    for (const ok of ['http', 'https', 'a1', 'etcd-client', 'abcdefghijklmno'])
      expect(isIanaServiceName(ok), ok).to.equal(true);
    for (const bad of ['', '123', 'HTTP', '-http', 'http-', 'a--b', 'abcdefghijklmnop', 'a_b'])
      expect(isIanaServiceName(bad), bad).to.equal(false);
  });

  it('turns an unresolvable named port into a configuration error, not a failure', async () => {
    const res = await runProbe({ httpGet: { host: '127.0.0.1', port: 'nonesuch' } });
    expect(res.result).to.equal('error');
    expect(res.message).to.contain('nonesuch');
  });
});
