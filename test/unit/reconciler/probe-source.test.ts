// Which probe a Cluster asks for: the field, else the liveness-probe annotation, else the legacy health-checker
// annotation converted as migration converts it; what cannot be read is a configuration error naming the place.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { probeSourceOf } from '../../../src/reconciler/index.js';
import type { Cluster } from '../../../src/schema/index.js';

const fixture = (name: string): Cluster =>
  parse(readFileSync(new URL(`../../fixtures/clusters/${name}.yaml`, import.meta.url), 'utf8')) as Cluster;

const base = (annotations: Record<string, string> = {}, spec: Partial<Cluster['spec']> = {}): Cluster => ({
  metadata: { name: 'm1', annotations },
  spec: { syncMode: 'Push', apiEndpoint: 'https://10.0.0.1:6443', ...spec },
});

describe('reconciler probe source', () => {
  it('takes spec.livenessProbe first', () => {
    const c = base(
      { 'cluster.karmada.io/liveness-probe': '{"tcpSocket":{"port":22}}' },
      { livenessProbe: { httpGet: { port: 8080, path: '/healthz' } } },
    );
    expect(probeSourceOf(c)).to.deep.equal({ kind: 'field', probe: { httpGet: { port: 8080, path: '/healthz' } } });
  });

  it('reads the liveness-probe annotation when the field is not set', () => {
    const c = base({ 'cluster.karmada.io/liveness-probe': '{"tcpSocket":{"port":22},"periodSeconds":5}' });
    expect(probeSourceOf(c)).to.deep.equal({
      kind: 'annotation',
      probe: { tcpSocket: { port: 22 }, periodSeconds: 5 },
    });
  });

  it('names the annotation when its JSON is malformed', () => {
    const s = probeSourceOf(base({ 'cluster.karmada.io/liveness-probe': '{"tcpSocket":' }));
    expect(s.kind).to.equal('annotation');
    expect('error' in s && s.error).to.match(/cluster\.karmada\.io\/liveness-probe.*invalid JSON/);
  });

  it('reports an annotation probe that fails validation with the field path', () => {
    const s = probeSourceOf(base({ 'cluster.karmada.io/liveness-probe': '{"tcpSocket":{"port":70000}}' }));
    expect('error' in s && s.error).to.match(/port.*65535/);
  });

  it('converts the legacy service annotation as migration does (HTTPS, <name>.<ns>.svc, timeout 10 s)', () => {
    expect(probeSourceOf(fixture('member-legacy'))).to.deep.equal({
      kind: 'legacy',
      probe: {
        httpGet: { scheme: 'HTTPS', host: 'member-dev-health.some-system.svc', port: 80, path: '/healthz' },
        timeoutSeconds: 10,
      },
    });
  });

  it('converts a legacy url annotation into scheme, host, port and path', () => {
    const s = probeSourceOf(base({ 'cluster.karmada.io/health-checker': '{"url":"http://127.0.0.1:9000/ready"}' }));
    expect(s).to.deep.equal({
      kind: 'legacy',
      probe: { httpGet: { scheme: 'HTTP', host: '127.0.0.1', port: 9000, path: '/ready' }, timeoutSeconds: 10 },
    });
  });

  it('reports a legacy annotation it cannot convert as a configuration error', () => {
    const s = probeSourceOf(base({ 'cluster.karmada.io/health-checker': '{"service":{"name":"x"}' }));
    expect(s.kind).to.equal('legacy');
    expect('error' in s && s.error).to.include('cluster.karmada.io/health-checker');
  });

  it('finds no probe on a plain Cluster', () => {
    expect(probeSourceOf(base())).to.deep.equal({ kind: 'none' });
  });
});
