// Errors come out sorted by field path (issue 49): the consumer's check saw failureTreshold, pth, periodSeconds,
// tcpSocket, port, in the order the checks ran. kube-apiserver promises no order (a CRD's schema errors follow Go's map
// order of the schema's properties); the library gives the same list for the same object, indices by number.
import { expect } from 'chai';
import { compareFieldPaths, validateCluster, validateProbe } from '@karmada-cluster-probe/schema';

describe('errors sorted by field path', () => {
  it("sorts the consumer's example as a person reads it", () => {
    const cluster = {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'member-dev' },
      spec: {
        syncMode: 'Push',
        apiEndpoint: 'https://10.20.0.5:6443',
        livenessProbe: {
          failureTreshold: 3,
          httpGet: { pth: '/healthz', port: 70000 },
          periodSeconds: 0,
          tcpSocket: { port: 8080 },
        },
      },
    };
    const fields = validateCluster(cluster).errors.map((e) => e.field);
    expect(fields).to.deep.equal([
      'spec.livenessProbe.failureTreshold',
      'spec.livenessProbe.httpGet.port',
      'spec.livenessProbe.httpGet.pth',
      'spec.livenessProbe.periodSeconds',
      'spec.livenessProbe.tcpSocket',
    ]);
    expect([...fields].sort(compareFieldPaths)).to.deep.equal(fields);
  });

  it('orders indices by number, a prefix before its children, and keeps errors at one path in the order found', () => {
    const paths = ['spec.taints[10].key', 'spec.taints[2].key', 'spec', 'spec.taints[2]', 'metadata.name', ''];
    expect([...paths].sort(compareFieldPaths)).to.deep.equal([
      '',
      'metadata.name',
      'spec',
      'spec.taints[2]',
      'spec.taints[2].key',
      'spec.taints[10].key',
    ]);
    const taints = Array.from({ length: 12 }, (_, i) => ({ key: `k${i}`, effect: i % 5 === 0 ? 'Bad' : 'NoSchedule' }));
    const errors = validateCluster({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'm' },
      spec: { syncMode: 'Push', apiEndpoint: 'https://10.20.0.5:6443', taints: taints },
    }).errors.map((e) => e.field);
    expect(errors).to.deep.equal(['spec.taints[0].effect', 'spec.taints[5].effect', 'spec.taints[10].effect']);
  });

  it('orders indices of any length exactly, so that the order is total and transitive (past 1e308 too)', () => {
    const big = '9'.repeat(400);
    const paths = [
      `x[1${big}]`,
      `x[${big}]`,
      'x[010]',
      'x[10]',
      'x[9]',
      `x[0${big}]`,
      `x[2${big.slice(1)}]`,
      'x[0]',
      'x[00]',
      `x[01${'0'.repeat(399)}]`,
    ];
    const sorted = [...paths].sort(compareFieldPaths);
    expect(sorted).to.deep.equal([
      'x[0]',
      'x[00]',
      'x[9]',
      'x[10]',
      'x[010]',
      `x[01${'0'.repeat(399)}]`,
      `x[2${big.slice(1)}]`,
      `x[${big}]`,
      `x[0${big}]`,
      `x[1${big}]`,
    ]);
    for (const a of paths)
      for (const b of paths) {
        expect(Math.sign(compareFieldPaths(a, b)), `${a.length} ${b.length}`).to.equal(
          -Math.sign(compareFieldPaths(b, a)),
        );
        for (const c of paths)
          if (compareFieldPaths(a, b) < 0 && compareFieldPaths(b, c) < 0)
            expect(compareFieldPaths(a, c)).to.be.below(0);
      }
  });

  it('sorts a probe validated on its own too', () => {
    const r = validateProbe({ tcpSocket: { port: 0 }, timeoutSeconds: 0, httpGet: { port: 0 } });
    const fields = r.errors.map((e) => e.field);
    expect(fields.length).to.be.greaterThan(2);
    expect([...fields].sort(compareFieldPaths)).to.deep.equal(fields);
  });
});
