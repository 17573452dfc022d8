// Generates docs/api-reference.md from schemas/: every field with its type, default, constraints and description.
import {
  clusterSchema,
  dereference,
  healthCheckerAnnotationSchema,
  type SchemaNode,
} from '../../packages/schema/src/schema/schemas.js';

function typeName(n: SchemaNode): string {
  if (n['x-kubernetes-int-or-string'] === true) return 'integer or string';
  if (n.type === 'array') return `array of ${n.items === undefined ? 'any' : typeName(n.items)}`;
  if (n.type === 'object' && typeof n.additionalProperties === 'object')
    return `map of ${typeName(n.additionalProperties)}`;
  return n.title ?? n.type ?? 'any';
}

function constraints(n: SchemaNode, required: boolean): string {
  const c: string[] = [];
  if (required) c.push('required');
  if (n.enum !== undefined) c.push(`one of ${n.enum.map((v) => `\`${String(v)}\``).join(', ')}`);
  if (n.default !== undefined) c.push(`default \`${JSON.stringify(n.default)}\``);
  if (n.minimum !== undefined) c.push(`≥ ${n.minimum}`);
  if (n.maximum !== undefined) c.push(`≤ ${n.maximum}`);
  if (n.maxLength !== undefined) c.push(`at most ${n.maxLength} bytes`);
  if (n.maxItems !== undefined) c.push(`at most ${n.maxItems} items`);
  for (const v of n['x-kubernetes-validations'] ?? []) c.push(`rule: ${v.message}`);
  return c.join('; ');
}

function rows(n: SchemaNode, path: string, out: string[]): void {
  const required = new Set(n.required ?? []);
  for (const [name, child] of Object.entries(n.properties ?? {})) {
    const p = path === '' ? name : `${path}.${name}`;
    const desc = (child.description ?? '').replace(/\|/g, '\\|');
    out.push(`| \`${p}\` | ${typeName(child)} | ${constraints(child, required.has(name))} | ${desc} |`);
    if (child.properties !== undefined) rows(child, p, out);
    if (child.items?.properties !== undefined) rows(child.items, `${p}[]`, out);
  }
}

function table(n: SchemaNode, path: string): string {
  const out = ['| Field | Type | Constraints | Description |', '| --- | --- | --- | --- |'];
  rows(n, path, out);
  return out.join('\n');
}

export function generateApiReference(): string {
  const cluster = dereference(clusterSchema);
  return [
    '<!-- Generated from schemas/ by `npm run generate`. Do not edit: change the schema and regenerate. -->',
    '# API reference: cluster.karmada.io/v1alpha1 Cluster',
    '',
    cluster.description ?? '',
    '',
    'Rules beyond the schema (checked by `validateCluster`, the webhook and, where CEL can say them, the CRD): exactly one probe handler;',
    'ports 1-65535 or an IANA service name (gRPC: a number only); HTTP header names of alphanumerics and `-`; `caBundle` is base64 PEM;',
    "probe hosts are IP addresses or DNS names outside the deny list; Karmada's own rules on the name (a DNS-1123 label of at most 48",
    'characters), `apiEndpoint`, `secretRef`, `proxyURL`, `zone`/`zones`, taints and resource models. See docs/validation.md.',
    '',
    '## Cluster',
    '',
    table(cluster, ''),
    '',
    '## Legacy annotation `cluster.karmada.io/health-checker`',
    '',
    healthCheckerAnnotationSchema.description ?? '',
    '',
    table(healthCheckerAnnotationSchema, ''),
    '',
  ].join('\n');
}
