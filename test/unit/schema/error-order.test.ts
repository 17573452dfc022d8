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

  it('sorts a probe validated on its own too', () => {
    const r = validateProbe({ tcpSocket: { port: 0 }, timeoutSeconds: 0, httpGet: { port: 0 } });
    const fields = r.errors.map((e) => e.field);
    expect(fields.length).to.be.greaterThan(2);
    expect([...fields].sort(compareFieldPaths)).to.deep.equal(fields);
  });
});
