// A typo outside the probe is reported, as kube-apiserver reports it (issue 49): `spec.livenessprobe` (lower-case
// p), `spec.apiEndpiont` and a top-level `statuz` used to validate as a Cluster with no probe and no word. Karmada's own
// Go types judge the list in test/oracle/unknown-fields.test.ts; here, the modes, the bound and what stays silent.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { parse } from 'yaml';
import {
  isCluster,
  isClusterKind,
  MAX_UNKNOWN_FIELD_PATH,
  MAX_UNKNOWN_FIELDS,
  strictDecodingError,
  unknownFields,
  validateCluster,
} from '@karmada-cluster-probe/schema';

const fixture = (name: string): Record<string, unknown> =>
  parse(readFileSync(`test/fixtures/clusters/${name}`, 'utf8')) as Record<string, unknown>;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
v8.setFlagsFromString('--no-expose-gc');

function heapBytes(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const base = (spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'm', ...metadata },
  spec: { syncMode: 'Push', apiEndpoint: 'https://10.20.0.5:6443', ...spec },
});

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

  it(`cuts a path longer than ${MAX_UNKNOWN_FIELD_PATH} characters, so that 100 keys of a megabyte answer in kilobytes`, () => {
    const spec: Record<string, unknown> = {};
    for (let i = 0; i < MAX_UNKNOWN_FIELDS; i++) spec[`${i}`.padEnd(2 ** 20, 'k')] = i;
    const r = validateCluster(base(spec), { fieldValidation: 'Strict' });
    expect(r.errors).to.have.length(MAX_UNKNOWN_FIELDS);
    for (const e of r.errors) {
      expect(e.field.length).to.equal(MAX_UNKNOWN_FIELD_PATH);
      expect(e.field).to.match(/^spec\.\d+k+\.\.\.$/);
    }
    expect(JSON.stringify(r.errors).length).to.be.below(MAX_UNKNOWN_FIELDS * 8 * MAX_UNKNOWN_FIELD_PATH);
  });

  it('keeps none of the unknown names it has seen (they come from the request; the walk outlives it)', () => {
    // resourceModels[].ranges[] nests two arrays, and the 100 names each request reported were interned under their
    // index: 64 x 64 ranges x 64 names retained 62 MiB over a few thousand requests. Here 80 requests of 100 names
    // spread over 16 x 16 ranges: about 2 MB if they were kept.
    const request = (n: number): Record<string, unknown> => {
      const models = Array.from({ length: 16 }, (_, grade) => ({
        grade,
        ranges: Array.from({ length: 16 }, (_, r) => {
          const range: Record<string, unknown> = { name: 'cpu', min: '0', max: '1' };
          if (n >= 0 && (((grade * 16 + r - n * 100) % 256) + 256) % 256 < 100)
            range[`${n}-${grade}-${r}-`.padEnd(60, 'u')] = 1;
          return range;
        }),
      }));
      return base({ resourceModels: models });
    };
    // The known paths (16 x 16 ranges) are interned by a first walk; what follows is the unknown names alone.
    expect(unknownFields(request(-1)).total).to.equal(0);
    const before = heapBytes();
    let reported = 0;
    for (let n = 0; n < 80; n++) reported += unknownFields(request(n)).paths.length;
    expect(reported).to.be.above(80 * 90);
    const grown = heapBytes() - before;
    expect(grown, `${grown} bytes kept after ${reported} unknown names reported`).to.be.below(256 * 1024);
  });

  it('walks a sparse array of twenty million slots without a path for each hole', () => {
    const taints: unknown[] = [];
    taints.length = 20_000_000;
    taints[19_999_999] = { key: 'k', effect: 'NoSchedule', efect: 'x' };
    // Against a baseline in the same run, a loop reading every slot: a path per slot cost about 9x it (682 against
    // 72 ms), the walk now about as much as the loop.
    const cpuMs = (f: () => void): number => {
      const started = process.cpuUsage();
      f();
      const used = process.cpuUsage(started);
      return (used.user + used.system) / 1000;
    };
    let seen = 0;
    const loop = cpuMs(() => {
      for (let i = 0; i < taints.length; i++) if (taints[i] !== undefined) seen++;
    });
    let found: ReturnType<typeof unknownFields> | undefined;
    const walked = cpuMs(() => (found = unknownFields(base({ taints }))));
    expect(seen).to.equal(1);
    expect(found?.paths).to.deep.equal(['spec.taints[19999999].efect']);
    expect(walked, `walk ${walked} ms, loop ${loop} ms`).to.be.below(4 * loop + 50);
  });

  it('never throws on an object that is not plain data: the error says so, the fields found before stay', () => {
    const cluster = base({}, { labels: { a: 'b' }, bogus: 1 });
    Object.defineProperty(cluster.metadata, 'ownerReferences', {
      enumerable: true,
      get: (): never => {
        throw new Error('getter exploded');
      },
    });
    const found = unknownFields(cluster);
    expect(found.paths).to.deep.equal(['metadata.bogus']);
    expect(found.unreadable).to.equal('getter exploded');
    const proxy = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new TypeError('no keys for you');
        },
      },
    );
    for (const mode of ['Strict', 'Warn'] as const) {
      const r = validateCluster(base({}, { managedFields: [proxy] }), { fieldValidation: mode });
      expect(r.valid).to.equal(false);
      expect(r.errors.map((e) => e.message)).to.include(
        'Forbidden: could not be read as plain JSON data (no keys for you); send the object as JSON',
      );
    }
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
