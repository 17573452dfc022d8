// The JSON Schemas of schemas/, the single source of truth, as importable values.
// Pure data: validators, defaulting, types, the CRD and the docs all derive from these.
import clusterSchemaJson from '../../schemas/cluster.schema.json' with { type: 'json' };
import livenessProbeSchemaJson from '../../schemas/liveness-probe.schema.json' with { type: 'json' };
import healthCheckerSchemaJson from '../../schemas/health-checker-annotation.schema.json' with { type: 'json' };

/** A JSON Schema node as our schemas use it (structural OpenAPI v3 plus x-kubernetes-* keys and $ref). */
export interface SchemaNode {
  $id?: string;
  $ref?: string;
  title?: string;
  description?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  enum?: readonly (string | number)[];
  default?: unknown;
  required?: readonly string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: readonly string[];
  'x-kubernetes-validations'?: readonly { rule: string; message: string; fieldPath?: string }[];
}

export const clusterSchema = clusterSchemaJson as SchemaNode;
export const livenessProbeSchema = livenessProbeSchemaJson as SchemaNode;
export const healthCheckerAnnotationSchema = healthCheckerSchemaJson as SchemaNode;

/** Every schema by its $id, for resolving `$ref`. */
export const schemasById: Readonly<Record<string, SchemaNode>> = {
  'cluster.schema.json': clusterSchema,
  'liveness-probe.schema.json': livenessProbeSchema,
  'health-checker-annotation.schema.json': healthCheckerAnnotationSchema,
};

/** A copy of `node` with every `$ref` replaced by the schema it names (without its $id), as a CRD needs. */
export function dereference(node: SchemaNode): SchemaNode {
  if (node.$ref !== undefined) {
    const target = schemasById[node.$ref];
    if (target === undefined) throw new Error(`schema $ref ${node.$ref} names no schema in schemas/`);
    const { $ref: _ref, ...rest } = node;
    const { $id: _id, ...inner } = dereference(target);
    return { ...inner, ...rest };
  }
  const out: SchemaNode = { ...node };
  if (node.properties !== undefined)
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, dereference(v)]));
  if (node.items !== undefined) out.items = dereference(node.items);
  if (typeof node.additionalProperties === 'object') out.additionalProperties = dereference(node.additionalProperties);
  return out;
}
