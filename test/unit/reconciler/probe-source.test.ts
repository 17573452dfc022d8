// Which probe a Cluster asks for: the field, else the liveness-probe annotation, else the legacy health-checker
// annotation converted as migration converts it; every probe is checked by the schema library (with the deny list the
// engine connects with), and one that cannot be read or fails validation is invalid, with its field errors.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { probeSourceOf } from '../../../src/reconciler/index.js';
import type { Cluster } from '../../../packages/schema/src/schema/index.js';
import { aCluster } from '../../support/cluster.js';

const fixture = (name: string): Cluster =>
  parse(readFileSync(new URL(`../../fixtures/clusters/${name}.yaml`, import.meta.url), 'utf8')) as Cluster;

const base = (annotations: Record<string, string> = {}, spec: Partial<Cluster['spec']> = {}): Cluster =>
  aCluster('m1', { annotations, apiEndpoint: 'https://10.0.0.1:6443', spec });

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

  it('checks spec.livenessProbe too (it may have bypassed admission), naming the field', () => {
    const s = probeSourceOf(base({}, { livenessProbe: { httpGet: { port: 70000, path: 'healthz' } } }));
    expect(s.kind).to.equal('field');
    expect('errors' in s && s.errors.map((e) => e.message)).to.deep.equal([
      'spec.livenessProbe.httpGet.path: Invalid value: "healthz": must start with \'/\'',
      'spec.livenessProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ]);
    expect('error' in s && s.error).to.include('spec.livenessProbe.httpGet.port: Invalid value: 70000');
  });

  it('checks what a probe needs from the Cluster (an apiServer probe on a Push cluster needs spec.secretRef)', () => {
    const s = probeSourceOf(base({}, { livenessProbe: { apiServer: { minReadyNodes: 1 } } }));
    expect('error' in s && s.error).to.match(
      /^spec\.secretRef: Required value: required by spec\.livenessProbe\.apiServer/,
    );
  });

  it('denies the addresses the engine never connects to, in both probe locations, with the same list', () => {
    const field = probeSourceOf(base({}, { livenessProbe: { tcpSocket: { host: '169.254.169.254', port: 80 } } }));
    expect('error' in field && field.error).to.equal(
      'spec.livenessProbe.tcpSocket.host: Forbidden: 169.254.169.254 is in the denied address range 169.254.0.0/16; probes may not target it',
    );
    const ann = probeSourceOf(
      base(
        { 'cluster.karmada.io/liveness-probe': '{"httpGet":{"port":80}}' },
        { apiEndpoint: 'https://169.254.10.1:6443' },
      ),
    );
    expect('error' in ann && ann.error).to.include(
      'metadata.annotations[cluster.karmada.io/liveness-probe].httpGet.host: Forbidden: 169.254.10.1 (the host of spec.apiEndpoint) is in the denied address range',
    );
    // The list the reconciler was started with (--deny-cidr) is the one that decides.
    const allowed = probeSourceOf(base({}, { livenessProbe: { tcpSocket: { host: '169.254.169.254', port: 80 } } }), {
      denyList: ['10.0.0.0/8'],
    });
    expect(allowed).to.deep.equal({ kind: 'field', probe: { tcpSocket: { host: '169.254.169.254', port: 80 } } });
    const denied = probeSourceOf(base({}, { livenessProbe: { tcpSocket: { host: '10.1.2.3', port: 80 } } }), {
      denyList: ['10.0.0.0/8'],
    });
    expect('error' in denied && denied.error).to.include('10.0.0.0/8');
  });

  it('checks the legacy annotation after migrating it in memory, naming the annotation', () => {
    const s = probeSourceOf(
      base({ 'cluster.karmada.io/health-checker': '{"url":"https://169.254.169.254/latest/meta-data"}' }),
    );
    expect(s.kind).to.equal('legacy');
    expect('error' in s && s.error).to.match(
      /^metadata\.annotations\[cluster\.karmada\.io\/health-checker\]\S*( \(migrated to spec\.livenessProbe\.httpGet\.host\))?: Forbidden: 169\.254\.169\.254 .*denied address range 169\.254\.0\.0\/16/,
    );
    // What migration leaves to the probe's own rules is named after the annotation too.
    const migrated = probeSourceOf(
      base(
        { 'cluster.karmada.io/health-checker': '{"url":"https://health.member1.example:8443/readyz"}' },
        { syncMode: 'Push' },
      ),
      { denyList: ['10.0.0.0/8'] },
    );
    expect(migrated.kind).to.equal('legacy');
    expect('probe' in migrated && migrated.probe.httpGet).to.deep.equal({
      scheme: 'HTTPS',
      host: 'health.member1.example',
      port: 8443,
      path: '/readyz',
    });
    // With a custom list, the list decides for the legacy url as for any probe.
    const allowed = probeSourceOf(
      base({ 'cluster.karmada.io/health-checker': '{"url":"http://169.254.169.254/latest"}' }),
      { denyList: ['10.0.0.0/8'] },
    );
    expect(allowed.kind).to.equal('legacy');
    expect('probe' in allowed && allowed.probe.httpGet?.host).to.equal('169.254.169.254');
  });

  it('never echoes a secret from an invalid probe', () => {
    const s = probeSourceOf(
      base({
        'cluster.karmada.io/liveness-probe': JSON.stringify({
          httpGet: { port: 80, httpHeaders: [{ name: 'Authorization', value: 42 }] },
          extra: 'Bearer s3cr3t',
        }),
      }),
    );
    expect('error' in s && s.error).to.include('unknown field');
    expect('error' in s && s.error).not.to.include('s3cr3t');
  });

  it('finds no probe on a plain Cluster', () => {
    expect(probeSourceOf(base())).to.deep.equal({ kind: 'none' });
  });
});
