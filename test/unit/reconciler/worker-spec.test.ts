// workerSpecOf: what a Cluster's probe worker is built from, resolved once and purely from the Cluster (issue 40): its
// source, handler, timing (defaults and minimums applied), credentials, trust and the fingerprint that decides whether
// a worker is replaced.
import { expect } from 'chai';
import { workerSpecOf } from '../../../src/reconciler/probe-workers.js';
import { PROBE_ANNOTATION } from '../../../packages/schema/src/api/index.js';
import { PROBE_DEFAULTS } from '../../../packages/probe/src/index.js';
import type { Cluster } from '../../../packages/schema/src/schema/index.js';

function cluster(spec: Partial<Cluster['spec']> & { livenessProbe?: unknown }, annotations?: Record<string, string>) {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member1', ...(annotations !== undefined ? { annotations } : {}) },
    spec,
  } as Cluster;
}

describe('workerSpecOf', () => {
  it('says none for a Cluster without a probe', () => {
    expect(workerSpecOf(cluster({}))).to.deep.equal({ kind: 'none' });
  });

  it('resolves the timing once, with the defaults for what the probe leaves out', () => {
    const spec = workerSpecOf(
      cluster({ livenessProbe: { tcpSocket: { host: '10.0.0.1', port: 6443 }, periodSeconds: 3 } }),
    );
    expect(spec.kind).to.equal('probe');
    if (spec.kind !== 'probe') return;
    expect(spec.handler).to.equal('tcpSocket');
    expect(spec.source).to.equal('field');
    expect(spec.timing).to.deep.equal({ ...PROBE_DEFAULTS, periodSeconds: 3 });
    expect(spec.secretRef).to.equal(undefined);
  });

  it('takes the Secret of an apiServer probe, the member endpoint and the deny list into the run context', () => {
    const c = cluster({
      apiEndpoint: 'https://10.0.0.1:6443',
      insecureSkipTLSVerification: true,
      secretRef: { namespace: 'karmada-cluster', name: 'member1' },
      livenessProbe: { apiServer: { path: '/readyz' } },
    });
    const spec = workerSpecOf(c, ['192.0.2.0/24']);
    expect(spec.kind).to.equal('probe');
    if (spec.kind !== 'probe') return;
    expect(spec.handler).to.equal('apiServer');
    expect(spec.secretRef).to.deep.equal({ namespace: 'karmada-cluster', name: 'member1' });
    expect(spec.context).to.deep.equal({
      apiEndpoint: 'https://10.0.0.1:6443',
      insecureSkipTLSVerify: true,
      denyList: ['192.0.2.0/24'],
    });
  });

  it('gives the same fingerprint for the same Cluster, and another when what the worker is built from changes', () => {
    const probe = { httpGet: { host: '10.0.0.1', port: 8080, path: '/healthz' } };
    const a = workerSpecOf(cluster({ livenessProbe: probe }));
    const b = workerSpecOf(cluster({ livenessProbe: structuredClone(probe) }));
    const c = workerSpecOf(cluster({ livenessProbe: { ...probe, failureThreshold: 5 } }));
    const d = workerSpecOf(cluster({ livenessProbe: probe, apiEndpoint: 'https://10.0.0.2:6443' }));
    if (a.kind !== 'probe' || b.kind !== 'probe' || c.kind !== 'probe' || d.kind !== 'probe')
      throw new Error('expected probes');
    expect(a.fingerprint).to.equal(b.fingerprint);
    expect(c.fingerprint).to.not.equal(a.fingerprint);
    expect(d.fingerprint).to.not.equal(a.fingerprint);
    expect(c.timing.failureThreshold).to.equal(5);
  });

  it('reads the probe from the annotation, and says invalid (never run) with a bounded message', () => {
    const ok = workerSpecOf(
      cluster({}, { [PROBE_ANNOTATION]: JSON.stringify({ tcpSocket: { port: 6443, host: 'h' } }) }),
    );
    expect(ok.kind).to.equal('probe');
    if (ok.kind === 'probe') expect(ok.source).to.equal('annotation');
    const bad = workerSpecOf(cluster({ livenessProbe: { tcpSocket: { port: 0, host: 'h' }, periodSeconds: -1 } }));
    expect(bad.kind).to.equal('invalid');
    if (bad.kind !== 'invalid') return;
    expect(bad.errors).to.be.greaterThan(0);
    expect(bad.error).to.match(/port/);
    expect(bad.fingerprint).to.equal(`invalid:${bad.error}`);
  });
});
