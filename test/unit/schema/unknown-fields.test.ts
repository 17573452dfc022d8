// A typo outside the probe is reported, as kube-apiserver reports it (issue 49): `spec.livenessprobe` (lower-case
// p), `spec.apiEndpiont` and a top-level `statuz` used to validate as a Cluster with no probe and no word. Karmada's own
// Go types judge the list in test/oracle/unknown-fields.test.ts; here, the modes, the bound and what stays silent.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  isCluster,
  isClusterKind,
  MAX_UNKNOWN_FIELDS,
  strictDecodingError,
  unknownFields,
  validateCluster,
} from '@karmada-cluster-probe/schema';

const fixture = (name: string): Record<string, unknown> =>
  parse(readFileSync(`test/fixtures/clusters/${name}`, 'utf8')) as Record<string, unknown>;

/** member-dev.yaml with its probe under `livenessprobe`, as a user typing fast writes it. */
function typoed(): Record<string, unknown> {
  const c = fixture('member-dev.yaml');
  const spec = c.spec as Record<string, unknown>;
  const { livenessProbe, ...rest } = spec;
  return { ...c, spec: { ...rest, livenessprobe: livenessProbe, apiEndpiont: rest.apiEndpoint }, statuz: {} };
}

describe('unknown fields outside the probe', () => {
  it('warns by default, in kube-apiserver words, with the path (the apiserver default, fieldValidation=Warn)', () => {
    const r = validateCluster(typoed());
    expect(r.valid).to.equal(true);
    expect(r.warnings).to.include.members([
      'unknown field "spec.livenessprobe"',
      'unknown field "spec.apiEndpiont"',
      'unknown field "statuz"',
    ]);
  });

  it('refuses under Strict (kubectl apply): one error at each path', () => {
    const r = validateCluster(typoed(), { fieldValidation: 'Strict' });
    expect(r.valid).to.equal(false);
    expect(r.errors.map((e) => [e.field, e.type, e.detail])).to.deep.include.members([
      ['spec.livenessprobe', 'FieldValueForbidden', 'unknown field "spec.livenessprobe"'],
      ['spec.apiEndpiont', 'FieldValueForbidden', 'unknown field "spec.apiEndpiont"'],
      ['statuz', 'FieldValueForbidden', 'unknown field "statuz"'],
    ]);
    expect(r.warnings.filter((w) => w.startsWith('unknown field'))).to.deep.equal([]);
  });

  it('says nothing under Ignore', () => {
    const r = validateCluster(typoed(), { fieldValidation: 'Ignore' });
    expect(r.valid).to.equal(true);
    expect(r.warnings.filter((w) => w.includes('unknown field'))).to.deep.equal([]);
  });

  it('stays silent on every fixture a user writes, and on what a server returns (managedFields, status maps)', () => {
    for (const name of ['member-dev.yaml', 'member-http.yaml', 'member-legacy.yaml', 'invalid-probe.yaml']) {
      expect(unknownFields(fixture(name)).total, name).to.equal(0);
    }
    const fromServer = {
      ...fixture('member-dev.yaml'),
      status: {
        apiEnablements: [{ groupVersion: 'v1', resources: [{ name: 'pods', kind: 'Pod' }] }],
        nodeSummary: { totalNum: 3, readyNum: 3 },
        resourceSummary: { allocatable: { cpu: '4' } },
        conditions: [],
      },
    };
    expect(unknownFields(fromServer).total).to.equal(0);
  });

  it('keeps reporting an unknown key inside the probe as the error it was, once', () => {
    const c = fixture('member-dev.yaml');
    (c.spec as { livenessProbe: Record<string, unknown> }).livenessProbe.failureTreshold = 3;
    const r = validateCluster(c);
    expect(r.errors.map((e) => e.message)).to.include(
      'spec.livenessProbe.failureTreshold: Forbidden: unknown field "failureTreshold"; check its spelling',
    );
    expect(r.warnings.join('\n')).to.not.contain('failureTreshold');
  });

  it(`names at most ${MAX_UNKNOWN_FIELDS} fields and counts the rest`, () => {
    const spec: Record<string, unknown> = { syncMode: 'Push', apiEndpoint: 'https://10.20.0.5:6443' };
    for (let i = 0; i < 10_000; i++) spec[`x${i}`] = i;
    const c = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm' }, spec };
    const found = unknownFields(c);
    expect(found.paths).to.have.length(MAX_UNKNOWN_FIELDS);
    expect(found.total).to.equal(10_000);
    const r = validateCluster(c);
    expect(r.warnings.filter((w) => w.startsWith('unknown field'))).to.have.length(MAX_UNKNOWN_FIELDS);
    expect(r.warnings).to.include(`and ${10_000 - MAX_UNKNOWN_FIELDS} more unknown fields`);
  });

  it("words the Strict refusal as apimachinery's strictDecodingError does", () => {
    expect(strictDecodingError(['spec.livenessprobe', 'statuz'])).to.equal(
      'strict decoding error: unknown field "spec.livenessprobe", unknown field "statuz"',
    );
  });
});

describe('isClusterKind: the cheap guard beside the validating one', () => {
  it('keeps a broken Cluster that isCluster drops, and drops what is not a Cluster', () => {
    const broken = fixture('invalid-probe.yaml');
    expect(isCluster(broken)).to.equal(false);
    expect(isClusterKind(broken)).to.equal(true);
    expect(isClusterKind({ apiVersion: 'v1', kind: 'Pod' })).to.equal(false);
    expect(isClusterKind({ apiVersion: 'cluster.karmada.io/v1alpha2', kind: 'Cluster' })).to.equal(false);
    for (const x of [null, undefined, 'Cluster', 1, [], {}]) expect(isClusterKind(x)).to.equal(false);
  });

  it('filters a List as `kubectl get clusters -o json` prints it without losing the broken ones', () => {
    const list = {
      kind: 'List',
      items: [fixture('member-dev.yaml'), fixture('invalid-probe.yaml'), { apiVersion: 'v1', kind: 'Secret' }],
    };
    expect(list.items.filter(isClusterKind)).to.have.length(2);
    expect(list.items.filter((x) => isCluster(x))).to.have.length(1);
  });
});
