// The guard that keeps the Cluster CRD off a Karmada control plane: the decision on real APIService shapes (Karmada's
// aggregated one, the local one a kube-apiserver registers for the CRD), and the lookup through a client.
import { expect } from 'chai';
import {
  aggregatedClusterApiServices,
  assertNotKarmadaControlPlane,
  KarmadaControlPlaneError,
  karmadaControlPlaneRefusal,
  type APIServiceLike,
} from '../../../src/deploy/karmada-guard.js';

/** As Karmada's artifacts/deploy/karmada-aggregated-apiserver-apiservice.yaml registers it. */
const karmadaApiService: APIServiceLike = {
  metadata: { name: 'v1alpha1.cluster.karmada.io' },
  spec: {
    group: 'cluster.karmada.io',
    version: 'v1alpha1',
    service: { namespace: 'karmada-system', name: 'karmada-aggregated-apiserver', port: 443 },
  },
};
/** What kube-apiserver's CRD registration makes for our CRD: no service, served locally. */
const localApiService: APIServiceLike = {
  metadata: { name: 'v1alpha1.cluster.karmada.io' },
  spec: { group: 'cluster.karmada.io', version: 'v1alpha1', service: null },
};
const builtins: APIServiceLike[] = [
  { metadata: { name: 'v1.apps' }, spec: { group: 'apps', version: 'v1' } },
  { metadata: { name: 'v1.' }, spec: { version: 'v1' } },
];
const metricsServer: APIServiceLike = {
  metadata: { name: 'v1beta1.metrics.k8s.io' },
  spec: { group: 'metrics.k8s.io', version: 'v1beta1', service: { namespace: 'kube-system', name: 'metrics-server' } },
};

function client(answer: unknown | Error): { request<T>(method: string, path: string): Promise<T>; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    request<T>(method: string, path: string): Promise<T> {
      calls.push(`${method} ${path}`);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer as T);
    },
  };
}

describe('karmada guard', () => {
  describe('karmadaControlPlaneRefusal', () => {
    it("refuses where Karmada's aggregated apiserver serves cluster.karmada.io, naming it and what to do", () => {
      const message = karmadaControlPlaneRefusal([...builtins, karmadaApiService], 'https://127.0.0.1:5443');
      expect(message).to.match(/^refusing to install the Cluster CRD \(clusters\.cluster\.karmada\.io\)/);
      expect(message).to.include('the apiserver at https://127.0.0.1:5443 is a Karmada control plane');
      expect(message).to.include(
        'APIService v1alpha1.cluster.karmada.io is served by the aggregated apiserver behind Service ' +
          'karmada-system/karmada-aggregated-apiserver:443',
      );
      expect(message).to.include('deleting it would delete every member Cluster');
      expect(message).to.include('docs/karmada.md');
    });

    it('allows a kube-apiserver whose cluster.karmada.io APIService is local (the CRD stand-in)', () => {
      expect(karmadaControlPlaneRefusal([...builtins, localApiService])).to.equal(undefined);
    });

    it('allows an apiserver with other aggregated APIs and none for cluster.karmada.io', () => {
      expect(karmadaControlPlaneRefusal([...builtins, metricsServer])).to.equal(undefined);
      expect(karmadaControlPlaneRefusal([])).to.equal(undefined);
    });

    it('refuses for any version of the group, and reads the group from the name when spec.group is missing', () => {
      const v1: APIServiceLike = {
        metadata: { name: 'v1.cluster.karmada.io' },
        spec: { service: { namespace: 'x', name: 'y' } },
      };
      expect(aggregatedClusterApiServices([v1, metricsServer])).to.deep.equal([v1]);
      expect(karmadaControlPlaneRefusal([v1])).to.include('APIService v1.cluster.karmada.io');
    });

    it('does not take a look-alike group for Karmada', () => {
      const other: APIServiceLike = {
        metadata: { name: 'v1alpha1.cluster.karmada.io.example' },
        spec: { group: 'cluster.karmada.io.example', service: { namespace: 'x', name: 'y' } },
      };
      expect(karmadaControlPlaneRefusal([other])).to.equal(undefined);
    });
  });

  describe('assertNotKarmadaControlPlane with a client', () => {
    it('lists APIServices and throws KarmadaControlPlaneError naming them on Karmada', async () => {
      const api = client({ items: [...builtins, karmadaApiService] });
      const err = await assertNotKarmadaControlPlane(api).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(api.calls).to.deep.equal(['GET /apis/apiregistration.k8s.io/v1/apiservices']);
      expect(err).to.be.instanceOf(KarmadaControlPlaneError);
      expect((err as KarmadaControlPlaneError).apiServices).to.deep.equal(['v1alpha1.cluster.karmada.io']);
    });

    it('resolves on a kube-apiserver serving Cluster from the CRD', async () => {
      await assertNotKarmadaControlPlane(client({ items: [...builtins, localApiService] }));
    });

    it('resolves where the aggregation API does not exist (404)', async () => {
      await assertNotKarmadaControlPlane(client(Object.assign(new Error('not found'), { status: 404 })));
    });

    it('fails closed when the APIServices cannot be listed (403)', async () => {
      const err = await assertNotKarmadaControlPlane(
        client(Object.assign(new Error('apiservices is forbidden'), { status: 403 })),
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(KarmadaControlPlaneError);
      expect((err as Error).message).to.include('cannot list APIServices');
      expect((err as Error).message).to.include('apiservices is forbidden');
      expect((err as Error).message).to.include('the Cluster CRD is not installed');
    });
  });

  it('names the kubeconfig it cannot load', async function () {
    this.timeout(30_000); // the first import of @kubernetes/client-node takes seconds on a busy machine
    const err = await assertNotKarmadaControlPlane('/nonexistent/kubeconfig').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(KarmadaControlPlaneError);
    expect((err as Error).message).to.match(/^kubeconfig \/nonexistent\/kubeconfig: /);
  });
});
