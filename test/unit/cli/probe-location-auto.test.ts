// Where a control plane can store the probe (src/deploy/probe-storage.ts) and what `--probe-location` resolves to
// there (src/cli/probe-location-option.ts): the OpenAPI shapes of Karmada's aggregated apiserver and of our CRD, the
// APIService fallback, discovery forbidden; `field` refused where it would be dropped, `auto` never losing the probe.
import { expect } from 'chai';
import {
  discoverProbeStorage,
  fieldInOpenApi,
  probeStorageOf,
  type ProbeStorage,
} from '../../../src/deploy/probe-storage.js';
import { resolveProbeLocation } from '../../../src/cli/probe-location-option.js';
import { KubeApiError } from '../../../src/kube/index.js';

const GVK = [{ group: 'cluster.karmada.io', version: 'v1alpha1', kind: 'Cluster' }];
const K = 'com.github.karmada-io.karmada.pkg.apis.cluster.v1alpha1';
/** The shape Karmada's generated OpenAPI (k8s.io/kube-openapi) gives its Cluster: spec wrapped in allOf with a $ref. */
const karmadaDoc = (specProps: Record<string, unknown>) => ({
  components: {
    schemas: {
      [`${K}.Cluster`]: {
        properties: { spec: { default: {}, allOf: [{ $ref: `#/components/schemas/${K}.ClusterSpec` }] } },
        'x-kubernetes-group-version-kind': GVK,
      },
      [`${K}.ClusterSpec`]: { properties: specProps },
    },
  },
});
/** A CRD's published OpenAPI: the spec inline. */
const crdDoc = (spec: Record<string, unknown>) => ({
  components: {
    schemas: {
      'io.karmada.cluster.v1alpha1.Cluster': { properties: { spec }, 'x-kubernetes-group-version-kind': GVK },
    },
  },
});
const aggregated = {
  metadata: { name: 'v1alpha1.cluster.karmada.io' },
  spec: {
    group: 'cluster.karmada.io',
    version: 'v1alpha1',
    service: { namespace: 'karmada-system', name: 'karmada-aggregated-apiserver', port: 443 },
  },
};
const local = {
  metadata: { name: 'v1alpha1.cluster.karmada.io' },
  spec: { group: 'cluster.karmada.io', service: null },
};

describe('where a control plane can store the probe', () => {
  describe('fieldInOpenApi', () => {
    it("reads Karmada's Cluster through the allOf $ref: no livenessProbe", () => {
      expect(fieldInOpenApi(karmadaDoc({ syncMode: {}, apiEndpoint: {} }))).to.equal(false);
      expect(fieldInOpenApi(karmadaDoc({ syncMode: {}, livenessProbe: {} }))).to.equal(true);
    });
    it("reads a CRD's inline spec, and a spec that keeps unknown fields stores it", () => {
      expect(fieldInOpenApi(crdDoc({ properties: { livenessProbe: { type: 'object' } } }))).to.equal(true);
      expect(fieldInOpenApi(crdDoc({ properties: { syncMode: {} } }))).to.equal(false);
      expect(fieldInOpenApi(crdDoc({ 'x-kubernetes-preserve-unknown-fields': true }))).to.equal(true);
    });
    it('cannot tell from a document without a Cluster of this group and version', () => {
      expect(fieldInOpenApi({})).to.equal(undefined);
      expect(fieldInOpenApi({ components: { schemas: { x: { 'x-kubernetes-group-version-kind': [] } } } })).to.equal(
        undefined,
      );
      expect(fieldInOpenApi('not a document')).to.equal(undefined);
    });
  });

  describe('probeStorageOf', () => {
    it('believes the OpenAPI first, and names the aggregated APIService', () => {
      const s = probeStorageOf({ ok: karmadaDoc({}) }, { ok: [aggregated] }, 'https://k:5443');
      expect(s.field).to.equal(false);
      expect(s.reason).to.include('the apiserver at https://k:5443 does not store spec.livenessProbe');
      expect(s.reason).to.include('karmada-system/karmada-aggregated-apiserver:443');
      expect(probeStorageOf({ ok: crdDoc({ properties: { livenessProbe: {} } }) }, { ok: [local] }).field).to.equal(
        true,
      );
    });
    it('takes an aggregated APIService for no field when the OpenAPI cannot be read', () => {
      const s = probeStorageOf({ error: 'forbidden', status: 403 }, { ok: [aggregated] });
      expect(s.field).to.equal(false);
      expect(s.reason).to.include("Karmada's Cluster type has no such field");
    });
    it('cannot tell when both are forbidden, and says what answered', () => {
      const s = probeStorageOf({ error: '403 Forbidden', status: 403 }, { error: '403 Forbidden', status: 403 });
      expect(s.field).to.equal(undefined);
      expect(s.reason).to.match(/^cannot tell whether the apiserver stores spec\.livenessProbe \(\/openapi\/v3/);
      expect(probeStorageOf({ error: 'x' }, { ok: [local] }).field).to.equal(undefined);
    });
  });

  it('discoverProbeStorage asks the OpenAPI and the APIServices, never throws, and takes a 404 for no aggregation', async () => {
    const calls: string[] = [];
    const api = {
      request<T>(method: string, path: string): Promise<T> {
        calls.push(`${method} ${path}`);
        if (path.startsWith('/openapi/')) return Promise.reject(new KubeApiError(403, 'Forbidden', 'forbidden'));
        return Promise.reject(new KubeApiError(404, 'NotFound', 'not found'));
      },
    };
    const s = await discoverProbeStorage(api);
    expect(calls.sort()).to.deep.equal([
      'GET /apis/apiregistration.k8s.io/v1/apiservices',
      'GET /openapi/v3/apis/cluster.karmada.io/v1alpha1',
    ]);
    expect(s.field).to.equal(undefined);
  });

  describe('resolveProbeLocation', () => {
    const dropped: ProbeStorage = { field: false, reason: 'R' };
    const stored: ProbeStorage = { field: true, reason: 'R' };
    const unknown: ProbeStorage = { field: undefined, reason: 'R' };
    it('auto: the field where it is stored, else the annotation, saying which and why', () => {
      expect(resolveProbeLocation('auto', stored)).to.deep.equal({
        location: 'field',
        note: '--probe-location auto: field: R',
      });
      expect(resolveProbeLocation('auto', dropped)).to.deep.equal({
        location: 'annotation',
        note: '--probe-location auto: annotation: R',
      });
      expect(resolveProbeLocation('auto', unknown)).to.deep.equal({
        location: 'annotation',
        note: '--probe-location auto: annotation: R; the annotation is stored by every apiserver',
      });
    });
    it('refuses field where it would be dropped, saying why and what to pass', () => {
      const r = resolveProbeLocation('field', dropped);
      expect(r).to.have.property('refusal').that.includes('R. Moving the probe there would delete it');
      expect((r as { refusal: string }).refusal).to.include('pass --probe-location annotation');
      expect(resolveProbeLocation('field', stored)).to.deep.equal({ location: 'field' });
      expect(resolveProbeLocation('field', unknown)).to.have.property('location', 'field');
    });
    it('takes annotation anywhere', () => {
      for (const s of [dropped, stored, unknown])
        expect(resolveProbeLocation('annotation', s)).to.deep.equal({ location: 'annotation' });
    });
  });
});
