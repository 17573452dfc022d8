// Unknown fields outside the probe (issue 49), judged by Karmada's own Go types: karmada-oracle decodes each Cluster
// with Karmada's scheme in strict mode, as karmada-aggregated-apiserver's handlers do under fieldValidation=Strict or
// Warn, and the library must name the same fields in the same words (`unknown field "spec.livenessprobe"`), in the
// same order. The one difference, asserted: Karmada's types have no spec.livenessProbe, which the library adds.
import { expect } from 'chai';
import { join } from 'node:path';
import {
  compareFieldPaths,
  strictDecodingError,
  unknownFieldMessage,
  validateCluster,
} from '../../packages/schema/src/schema/index.js';
import { API_ENDPOINT, CASES, cluster, type Obj } from './cases.js';
import { oracleBinDir, runOracle, type OracleVerdict } from './judge.js';

const PROBE = { tcpSocket: { port: 6443 } };

/** Typos and strays a user writes, everywhere in a Cluster but inside the probe. */
export const UNKNOWN_FIELD_CASES: { name: string; object: Obj }[] = [
  { name: 'unknown: spec.livenessprobe (lower-case p)', object: cluster({ livenessprobe: PROBE }) },
  { name: 'unknown: spec.apiEndpiont', object: cluster({ apiEndpiont: API_ENDPOINT }) },
  { name: 'unknown: top-level statuz', object: { ...cluster(), statuz: {} } },
  { name: 'unknown: metadata.labelz', object: cluster({}, { labelz: { a: 'b' } }) },
  {
    name: 'unknown: spec.taints[1].efect',
    object: cluster({
      taints: [
        { key: 'a', effect: 'NoSchedule' },
        { key: 'b', efect: 'NoSchedule', effect: 'NoExecute' },
      ],
    }),
  },
  {
    name: 'unknown: spec.secretRef.namespce',
    object: cluster({ secretRef: { namespce: 'karmada-cluster', name: 's' } }),
  },
  {
    name: 'unknown: spec.resourceModels[0].ranges[0].mn',
    object: cluster({ resourceModels: [{ grade: 0, ranges: [{ name: 'cpu', min: '0', max: '1', mn: '0' }] }] }),
  },
  {
    name: 'unknown: metadata.ownerReferences[0].controler',
    object: cluster({}, { ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u', controler: true }] }),
  },
  {
    name: 'unknown: metadata.managedFields[0].manger (fieldsV1 is free-form)',
    object: cluster(
      {},
      {
        managedFields: [{ manger: 'kubectl', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
      },
    ),
  },
  {
    name: 'unknown: status.conditions[0].reson',
    object: {
      ...cluster(),
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'x',
            reson: 'x',
            message: '',
            lastTransitionTime: '2026-12-07T00:00:00Z',
          },
        ],
      },
    },
  },
  {
    name: 'unknown: several, in the order written',
    object: {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      statuz: 1,
      metadata: { name: 'member', labelz: {} },
      spec: { syncMode: 'Push', apiEndpiont: 'x', apiEndpoint: API_ENDPOINT, livenessprobe: PROBE },
    },
  },
  {
    name: 'known: every ObjectMeta field, status fields and a proxyHeader map',
    object: {
      ...cluster(
        { proxyHeader: { 'X-Any': 'v' }, livenessProbe: PROBE },
        {
          generateName: 'member-',
          namespace: '',
          selfLink: '',
          uid: '8f0e1c2a-0000-4000-8000-000000000001',
          resourceVersion: '7',
          generation: 2,
          creationTimestamp: '2026-12-07T00:00:00Z',
          deletionGracePeriodSeconds: 30,
          labels: { a: 'b' },
          annotations: { a: 'b' },
          ownerReferences: [
            { apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u', controller: true, blockOwnerDeletion: true },
          ],
          finalizers: ['karmada.io/cluster-controller'],
          managedFields: [
            {
              manager: 'kubectl',
              operation: 'Apply',
              apiVersion: 'cluster.karmada.io/v1alpha1',
              time: '2026-12-07T00:00:00Z',
              fieldsType: 'FieldsV1',
              fieldsV1: { 'f:spec': { 'f:anything': {} } },
              subresource: '',
            },
          ],
        },
      ),
      status: {
        kubernetesVersion: 'v1.35.4',
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            observedGeneration: 2,
            reason: 'ClusterReady',
            message: 'cluster is healthy and ready to accept workloads',
            lastTransitionTime: '2026-12-07T00:00:00Z',
          },
        ],
      },
    },
  },
];

/** A stray field inside a status object that the schema (and the CRD) leaves open. */
const OPEN_STATUS = {
  name: 'difference: status.nodeSummary.totalNumz',
  object: { ...cluster(), status: { nodeSummary: { totalNum: 3, totalNumz: 3 } } },
};

/** The oracle's list with what Karmada cannot know left out: the probe the library adds, and everything under it. */
function withoutProbe(strict: string[]): string[] {
  return strict.filter((m) => !/^unknown field "spec\.livenessProbe(\.|"|\[)/.test(m));
}

const libraryUnknown = (object: Obj): string[] =>
  validateCluster(object).warnings.filter((w) => w.startsWith('unknown field "'));

describe("unknown fields: the library names what Karmada's strict decoding names (issue 49)", function () {
  let verdicts: Map<string, OracleVerdict>;
  const all = [...UNKNOWN_FIELD_CASES, OPEN_STATUS, ...CASES.map((c) => ({ name: c.name, object: c.object }))];

  before(function () {
    this.timeout(60 * 60_000); // a cold build compiles Karmada's packages; a warm one takes seconds
    verdicts = runOracle(join(oracleBinDir(), 'karmada-oracle'), all);
  });

  for (const c of UNKNOWN_FIELD_CASES) {
    it(c.name, function () {
      const strict = verdicts.get(c.name)?.strict;
      expect(strict, 'karmada-oracle gave no strict list').to.be.an('array');
      const expected = withoutProbe(strict ?? []);
      if (c.name.startsWith('unknown:'))
        expect(expected.length, 'the row must have an unknown field').to.be.greaterThan(0);
      else expect(expected).to.deep.equal([]);
      expect(libraryUnknown(c.object)).to.deep.equal(expected);
      // Strict: an error at each of those paths, sorted by path as every error list is.
      const strictRun = validateCluster(c.object, { fieldValidation: 'Strict' });
      const paths = expected.map((m) => JSON.parse(m.slice('unknown field '.length)) as string);
      expect(strictRun.errors.filter((e) => paths.includes(e.field)).map((e) => e.detail)).to.deep.equal(
        [...paths].sort(compareFieldPaths).map(unknownFieldMessage),
      );
      if (expected.length > 0) {
        expect(strictDecodingError(paths)).to.equal(`strict decoding error: ${expected.join(', ')}`);
      }
      expect(
        validateCluster(c.object, { fieldValidation: 'Ignore' }).warnings.filter((w) => w.startsWith('unknown field')),
      ).to.deep.equal([]);
    });
  }

  it('agrees on every row of the oracle table too (no false unknown field on 200+ Clusters)', function () {
    const disagree: string[] = [];
    for (const c of CASES) {
      const expected = withoutProbe(verdicts.get(c.name)?.strict ?? []);
      const actual = libraryUnknown(c.object);
      if (JSON.stringify(actual) !== JSON.stringify(expected))
        disagree.push(`${c.name}: oracle ${JSON.stringify(expected)}, library ${JSON.stringify(actual)}`);
    }
    expect(disagree).to.deep.equal([]);
  });

  it('a difference: the status objects the schema leaves open are not walked; Karmada knows their fields', function () {
    const strict = verdicts.get(OPEN_STATUS.name)?.strict ?? [];
    expect(strict).to.deep.equal(['unknown field "status.nodeSummary.totalNumz"']);
    expect(libraryUnknown(OPEN_STATUS.object)).to.deep.equal([]);
  });

  it('a difference: Karmada does not know spec.livenessProbe, which the library adds (docs/validation.md)', function () {
    const strict = verdicts.get('known: every ObjectMeta field, status fields and a proxyHeader map')?.strict ?? [];
    expect(strict).to.deep.equal(['unknown field "spec.livenessProbe"']);
  });
});
