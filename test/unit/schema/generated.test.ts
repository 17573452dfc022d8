// Generated files (types, CRD, API reference) must match what schemas/ generates now, and the CRD must follow the
// apiserver's structural-schema rules (apiextensions: every node typed, no $ref, properties xor additionalProperties,
// int-or-string untyped, list-map keys required, only name/generateName restricted under metadata).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { generatedFiles } from '../../../scripts/generate/all.js';
import type { SchemaNode } from '../../../packages/schema/src/schema/index.js';

const ALLOWED_KEYS = new Set([
  'description',
  'type',
  'format',
  'enum',
  'default',
  'required',
  'properties',
  'additionalProperties',
  'items',
  'minimum',
  'maximum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'pattern',
  'nullable',
  'anyOf',
  'allOf',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-validations',
  'x-kubernetes-map-type',
  'x-kubernetes-embedded-resource',
  'title',
]);

/** The structural-schema violations of `node`, each with its path. */
export function structuralViolations(node: SchemaNode, path = 'openAPIV3Schema'): string[] {
  const out: string[] = [];
  const n = node as Record<string, unknown>;
  for (const key of Object.keys(n))
    if (!ALLOWED_KEYS.has(key)) out.push(`${path}: ${key} is not allowed in a CRD schema`);
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  if (node.type === undefined && !intOrString && !preserve) out.push(`${path}: type must not be empty`);
  if (intOrString && node.type !== undefined) out.push(`${path}: x-kubernetes-int-or-string must not have a type`);
  if (node.properties !== undefined && node.additionalProperties !== undefined)
    out.push(`${path}: properties and additionalProperties are mutually exclusive`);
  if (node.type === 'array' && node.items === undefined) out.push(`${path}: items must be given for an array`);
  if (node['x-kubernetes-list-map-keys'] !== undefined) {
    if (node['x-kubernetes-list-type'] !== 'map') out.push(`${path}: list-map-keys need x-kubernetes-list-type: map`);
    for (const k of node['x-kubernetes-list-map-keys'])
      if (!(node.items?.required ?? []).includes(k)) out.push(`${path}: list-map key ${k} must be required`);
  }
  for (const [k, v] of Object.entries(node.properties ?? {})) {
    if (path === 'openAPIV3Schema' && k === 'metadata') {
      const extra = Object.keys(v).filter((x) => !['type', 'properties'].includes(x));
      extra.push(...Object.keys(v.properties ?? {}).filter((x) => !['name', 'generateName'].includes(x)));
      if (extra.length > 0)
        out.push(`${path}.metadata: only type and name/generateName may be given (${extra.join(', ')})`);
      continue;
    }
    out.push(...structuralViolations(v, `${path}.properties[${k}]`));
  }
  if (node.items !== undefined) out.push(...structuralViolations(node.items, `${path}.items`));
  if (typeof node.additionalProperties === 'object')
    out.push(...structuralViolations(node.additionalProperties, `${path}.additionalProperties`));
  return out;
}

describe('generated files', () => {
  for (const [path, content] of Object.entries(generatedFiles())) {
    it(`${path} is up to date with schemas/ (run \`npm run generate\` if not)`, () => {
      expect(readFileSync(path, 'utf8')).to.equal(content);
    });
  }
});

describe('the generated CRD', () => {
  const crd = parse(readFileSync('manifests/crd/cluster.karmada.io_clusters.yaml', 'utf8')) as {
    spec: {
      scope: string;
      versions: { name: string; subresources: object; schema: { openAPIV3Schema: SchemaNode } }[];
    };
  };
  const version = crd.spec.versions[0];
  it('is a cluster-scoped v1alpha1 with a status subresource', () => {
    expect(crd.spec.scope).to.equal('Cluster');
    expect(version?.name).to.equal('v1alpha1');
    expect(version?.subresources).to.deep.equal({ status: {} });
  });
  it('has a structural schema', () => {
    expect(structuralViolations(version?.schema.openAPIV3Schema ?? {})).to.deep.equal([]);
  });
  it('would be caught breaking a structural rule', () => {
    const bad: SchemaNode = {
      type: 'object',
      properties: { a: { description: 'untyped' }, metadata: { type: 'object', description: 'not allowed here' } },
      additionalProperties: false,
    };
    expect(structuralViolations(bad)).to.deep.equal([
      'openAPIV3Schema: properties and additionalProperties are mutually exclusive',
      'openAPIV3Schema.properties[a]: type must not be empty',
      'openAPIV3Schema.metadata: only type and name/generateName may be given (description)',
    ]);
  });
  it('inlines the probe schema and its CEL rules', () => {
    const probe = version?.schema.openAPIV3Schema.properties?.spec?.properties?.livenessProbe;
    expect(probe?.properties).to.have.keys(
      'httpGet',
      'tcpSocket',
      'grpc',
      'apiServer',
      'initialDelaySeconds',
      'timeoutSeconds',
      'periodSeconds',
      'successThreshold',
      'failureThreshold',
    );
    expect(probe?.['x-kubernetes-validations']?.map((v) => v.message)).to.deep.equal([
      'must specify a handler type',
      'may not specify more than 1 handler type',
    ]);
  });
});
