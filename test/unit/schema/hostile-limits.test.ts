// Every string in schemas/ is bounded, by the limit Kubernetes or Karmada applies (or a documented one where they
// have none): the schemas, the generated CRD and the table in docs/validation.md agree, and a value one character
// over is refused with apimachinery's wording while a value at the limit is not.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  clusterSchema,
  dereference,
  healthCheckerAnnotationSchema,
  validateCluster,
  type SchemaNode,
} from '../../../packages/schema/src/schema/index.js';

const LEGACY = 'cluster.karmada.io/health-checker';

/** Every string node under `node`: its path (`[*]` for array items, `.*` for map values) and its bounds. */
function strings(node: SchemaNode, path: string, out = new Map<string, SchemaNode>()): Map<string, SchemaNode> {
  if (node.type === 'string') out.set(path, node);
  for (const [k, v] of Object.entries(node.properties ?? {})) strings(v, path === '' ? k : `${path}.${k}`, out);
  if (node.items !== undefined) strings(node.items, `${path}[*]`, out);
  if (typeof node.additionalProperties === 'object') strings(node.additionalProperties, `${path}.*`, out);
  return out;
}

const cluster = strings(dereference(clusterSchema), '');
// The legacy annotation's JSON keys, named as docs/validation.md names them.
const legacy = strings(healthCheckerAnnotationSchema, 'health-checker');
const all = new Map([...cluster, ...legacy]);

/** The rows of the length-limit table in docs/validation.md: field -> limit. */
function documentedLimits(): Map<string, number> {
  const doc = readFileSync(new URL('../../../docs/validation.md', import.meta.url), 'utf8');
  const section = doc.split('\n## ').find((s) => s.startsWith('Length limits'));
  if (section === undefined) throw new Error('docs/validation.md has no "Length limits" section');
  const rows = new Map<string, number>();
  for (const line of section.split('\n')) {
    const m = /^\| `([^`]+)` \| ([\d,]+) \|/.exec(line);
    if (m) rows.set(m[1] as string, Number((m[2] as string).replace(/,/g, '')));
  }
  return rows;
}

describe('length limits of every string field', () => {
  it('gives every string field a maxLength, or an enum that bounds it', () => {
    const unbounded = [...all].filter(([, n]) => n.maxLength === undefined && n.enum === undefined).map(([p]) => p);
    expect(unbounded).to.deep.equal([]);
  });

  it('documents each limit in docs/validation.md, as the schemas set it', () => {
    const inSchemas = new Map([...all].filter(([, n]) => n.maxLength !== undefined).map(([p, n]) => [p, n.maxLength]));
    expect(Object.fromEntries(documentedLimits())).to.deep.equal(Object.fromEntries(inSchemas));
  });

  it('carries every limit into the generated CRD', () => {
    const crd = parse(
      readFileSync(new URL('../../../manifests/crd/cluster.karmada.io_clusters.yaml', import.meta.url), 'utf8'),
    ) as {
      spec: { versions: { schema: { openAPIV3Schema: SchemaNode } }[] };
    };
    const inCrd = strings(crd.spec.versions[0]!.schema.openAPIV3Schema, '');
    for (const [path, node] of cluster) expect(inCrd.get(path)?.maxLength, path).to.equal(node.maxLength);
  });
});

/** A valid Cluster with `value` put at `path` (`[*]` is the first item, `.*` a map key). */
function clusterWith(path: string, value: string): Record<string, unknown> {
  const obj: Record<string, unknown> = {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member-limits' },
    spec: { syncMode: 'Push', apiEndpoint: 'https://10.20.0.5:6443' },
  };
  if (path.startsWith('health-checker.')) {
    const annotation: Record<string, unknown> = {};
    setAt(annotation, path.slice('health-checker.'.length), value);
    (obj.metadata as Record<string, unknown>).annotations = { [LEGACY]: JSON.stringify(annotation) };
    return obj;
  }
  setAt(obj, path, value);
  return obj;
}

function setAt(obj: Record<string, unknown>, path: string, value: string): void {
  const parts = path.replace(/\[\*\]/g, '.[*]').split('.');
  let here: Record<string, unknown> | unknown[] = obj;
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    const next = parts[i + 1];
    const child = () => (next === '[*]' ? [] : {});
    if (Array.isArray(here)) {
      if (last) here[0] = value;
      else here = (here[0] ??= child()) as Record<string, unknown> | unknown[];
      return;
    }
    const key = part === '*' ? 'X-Limit' : part;
    if (last) here[key] = value;
    else here = (here[key] ??= child()) as Record<string, unknown> | unknown[];
  });
}

/** The apiserver's path for an error at `path` in a Cluster built by `clusterWith`. */
function fieldOf(path: string): string {
  if (path.startsWith('health-checker.'))
    return `metadata.annotations[${LEGACY}].${path.slice('health-checker.'.length)}`;
  // kube-apiserver prints a map key as `spec.proxyHeader.X-Limit`; the library brackets keys that are not identifiers.
  return path.replace(/\[\*\]/g, '[0]').replace(/\.\*$/, '[X-Limit]');
}

/** A value of exactly `n` characters that passes each field's other checks where that is easy. */
function valueOf(path: string, n: number): string {
  if (/caBundle$/.test(path)) return 'A'.repeat(n);
  if (/(apiEndpoint|proxyURL|url)$/.test(path)) return `https://example.com/${'a'.repeat(Math.max(0, n - 20))}`;
  if (/(Time|timeAdded)$/.test(path)) return '2026-01-01T00:00:00.' + '1'.repeat(n - 21) + 'Z';
  if (/path$/.test(path)) return '/' + 'a'.repeat(n - 1);
  return 'a'.repeat(n);
}

describe('counting characters', () => {
  it('counts code points, as kube-apiserver counts runes: an emoji is one character, not two', () => {
    const emoji = '\u{1F600}';
    const at = validateCluster(clusterWith('spec.region', emoji.repeat(63)));
    expect(at.errors.filter((e) => e.type === 'FieldValueTooLong')).to.deep.equal([]);
    const over = validateCluster(clusterWith('spec.region', emoji.repeat(64)));
    expect(over.errors.map((e) => e.message)).to.include('spec.region: Too long: may not be more than 63 bytes');
  });
});

describe('an oversize string, field by field', () => {
  for (const [path, node] of all) {
    if (node.maxLength === undefined || path === 'apiVersion' || path === 'kind') continue;
    const max = node.maxLength;
    it(`${path}: one character over ${max} is "Too long", in apimachinery's words`, () => {
      const over = validateCluster(clusterWith(path, valueOf(path, max + 1)));
      expect(over.errors.map((e) => e.message)).to.include(
        `${fieldOf(path)}: Too long: may not be more than ${max} bytes`,
      );
      const at = validateCluster(clusterWith(path, valueOf(path, max)));
      expect(at.errors.filter((e) => e.type === 'FieldValueTooLong').map((e) => e.message)).to.deep.equal([]);
    });
  }
});
