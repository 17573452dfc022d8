// isCluster and the validation result at run time: the guard answers as validateCluster does, and a valid result's
// object is the object given (test/unit/schema/types.test-d.ts checks what the types say about them).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { isCluster, validateCluster, validateProbe, type Cluster } from '../../../packages/schema/src/schema/index.js';

const fixture = (name: string): unknown => parse(readFileSync(`test/fixtures/clusters/${name}`, 'utf8'));
const good = (): Cluster => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'member' },
  spec: { syncMode: 'Pull', apiEndpoint: 'https://10.0.0.1:6443', livenessProbe: { tcpSocket: { port: 6443 } } },
});

describe('isCluster and the narrowing validation result', () => {
  it('accepts a valid Cluster, YAML fixtures included, and refuses what validateCluster refuses', () => {
    expect(isCluster(good())).to.equal(true);
    expect(isCluster(fixture('member-http.yaml'))).to.equal(true);
    expect(isCluster(fixture('invalid-probe.yaml'))).to.equal(false);
    const twoHandlers = good();
    Object.assign(twoHandlers.spec.livenessProbe ?? {}, { httpGet: { port: 80 } });
    expect(isCluster(twoHandlers)).to.equal(false);
    expect(isCluster({ ...good(), kind: 'Pod' })).to.equal(false);
    expect(isCluster({ ...good(), apiVersion: 'v1' })).to.equal(false);
    for (const junk of [null, undefined, 0, 'Cluster', [], {}]) expect(isCluster(junk), String(junk)).to.equal(false);
  });

  it('passes its options on: a probe in the field is no Cluster for an installation that keeps it in the annotation', () => {
    expect(isCluster(good(), { probeLocation: 'annotation' })).to.equal(false);
    const denied = good();
    denied.spec.livenessProbe = { tcpSocket: { port: 80, host: '10.1.2.3' } };
    expect(isCluster(denied)).to.equal(true);
    expect(isCluster(denied, { denyHosts: ['10.0.0.0/8'] })).to.equal(false);
  });

  it('gives the object itself (not a copy) in the result, valid or not, and valid exactly when there is no error', () => {
    const c = good();
    const ok = validateCluster(c);
    expect(ok.valid).to.equal(true);
    expect(ok.object).to.equal(c);
    const bad = { ...c, kind: 'Pod' };
    const refused = validateCluster(bad);
    expect(refused.valid).to.equal(false);
    expect(refused.object).to.equal(bad);
    expect(refused.errors).to.have.length.greaterThan(0);
    const probe = { grpc: { port: 9000 } };
    const checked = validateProbe(probe, { apiEndpoint: 'https://10.0.0.1:6443' });
    expect(checked).to.deep.equal({ valid: true, errors: [], warnings: [], object: probe });
  });
});
