// The interned field-path tree outlives every request, and an unknown key of a request is reported under its own name:
// a long name must not be kept (a bound on entries alone let 60 unknown keys of 2 MB keep 114 MiB).
import { expect } from 'chai';
import { FieldPath } from '../../../packages/schema/src/schema/field-error.js';
import { validateCluster } from '../../../packages/schema/src/schema/index.js';

describe('field paths under hostile names', function () {
  it('interns short names: the same child twice is the same object', function () {
    const a = FieldPath.root('spec').child('livenessProbe', 'httpGet');
    expect(FieldPath.root('spec').child('livenessProbe', 'httpGet')).to.equal(a);
  });

  it('never keeps a name longer than MAX_INTERNED_NAME in the tree', function () {
    const long = 'k'.repeat(FieldPath.MAX_INTERNED_NAME + 1);
    const first = FieldPath.root('spec').child('livenessProbe', long);
    const second = FieldPath.root('spec').child('livenessProbe', long);
    expect(second).to.not.equal(first);
    expect(second.toString()).to.equal(`spec.livenessProbe.${long}`);
    const root = FieldPath.root(long);
    expect(FieldPath.root(long)).to.not.equal(root);
  });

  it('still reports a long unknown key by its name', function () {
    const key = `x${'y'.repeat(100_000)}`;
    const result = validateCluster({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'member' },
      spec: {
        syncMode: 'Push',
        apiEndpoint: 'https://10.0.0.1:6443',
        livenessProbe: { tcpSocket: { port: 1 }, [key]: 1 },
      },
    });
    expect(result.valid).to.equal(false);
    expect(result.errors.some((e) => e.message.includes(key.slice(0, 50)))).to.equal(true);
  });
});
