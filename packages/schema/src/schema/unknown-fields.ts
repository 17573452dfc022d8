// Fields a Cluster holds that neither Karmada's Go types, ObjectMeta nor our schema know: a typo outside the probe
// (`spec.livenessprobe`, `spec.apiEndpiont`, a top-level `statuz`) that an apiserver drops on decoding. kube-apiserver
// and karmada-aggregated-apiserver report each in strict decoding's words, `unknown field "spec.livenessprobe"`: as
// warnings when the client asks nothing (fieldValidation=Warn), as a refusal when it asks Strict (kubectl's default).
// The walk follows schemas/cluster.schema.json and apimachinery's ObjectMeta; inside the probe the schema's own
// `additionalProperties: false` already reports an unknown key as an error. Pure: no I/O.
import { clip, isRecord, messageOf } from '../api/index.js';
import { FieldPath } from './field-error.js';
import { clusterSchema, dereference, type SchemaNode } from './schemas.js';

/** How unknown fields are reported, as kube-apiserver's `fieldValidation` query parameter names the choices. */
export const FIELD_VALIDATIONS = ['Strict', 'Warn', 'Ignore'] as const;
export type FieldValidation = (typeof FIELD_VALIDATIONS)[number];

/** kube-apiserver's default when the client names none (kubectl sends Strict). */
export const DEFAULT_FIELD_VALIDATION: FieldValidation = 'Warn';

/** The most unknown fields named for one object; past it, the rest are counted (the output stays bounded). */
export const MAX_UNKNOWN_FIELDS = 100;

const ANY: SchemaNode = { 'x-kubernetes-preserve-unknown-fields': true };
const STRING_MAP: SchemaNode = { type: 'object', additionalProperties: { type: 'string' } };
const LEAF: SchemaNode = {};

/**
 * metav1.ObjectMeta's JSON fields (k8s.io/apimachinery/pkg/apis/meta/v1 types.go, v0.35), with OwnerReference and
 * ManagedFieldsEntry; fieldsV1 is free-form. The Karmada oracle (test/oracle/unknown-fields.test.ts) decodes every
 * case with Karmada's Go types in strict mode and holds this list to what they know.
 */
const OBJECT_META: SchemaNode = {
  type: 'object',
  properties: {
    name: LEAF,
    generateName: LEAF,
    namespace: LEAF,
    selfLink: LEAF,
    uid: LEAF,
    resourceVersion: LEAF,
    generation: LEAF,
    creationTimestamp: LEAF,
    deletionTimestamp: LEAF,
    deletionGracePeriodSeconds: LEAF,
    labels: STRING_MAP,
    annotations: STRING_MAP,
    ownerReferences: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          apiVersion: LEAF,
          kind: LEAF,
          name: LEAF,
          uid: LEAF,
          controller: LEAF,
          blockOwnerDeletion: LEAF,
        },
      },
    },
    finalizers: LEAF,
    managedFields: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          manager: LEAF,
          operation: LEAF,
          apiVersion: LEAF,
          time: LEAF,
          fieldsType: LEAF,
          fieldsV1: ANY,
          subresource: LEAF,
        },
      },
    },
  },
};

/**
 * A schema node reduced to what the walk asks: which keys are known (and the walker of each, null for a leaf), the
 * walker of the values of a map, whether unknown keys are allowed, the walker of an array's items.
 */
interface Walker {
  known: Map<string, Walker | null> | undefined;
  values: Walker | null | undefined;
  open: boolean;
  items: Walker | null | undefined;
}

function walkerOf(node: SchemaNode): Walker | null {
  const items = node.items === undefined ? undefined : walkerOf(node.items);
  const values = typeof node.additionalProperties === 'object' ? walkerOf(node.additionalProperties) : undefined;
  const open = node['x-kubernetes-preserve-unknown-fields'] === true;
  if (node.properties === undefined && items == null && values == null) {
    // A leaf; or a map of leaves (labels): nothing under it can be unknown.
    if (values === null || open || node.type !== 'object') return null;
    return { known: new Map(), values: undefined, open, items: undefined };
  }
  const known = new Map<string, Walker | null>();
  for (const [key, child] of Object.entries(node.properties ?? {})) known.set(key, walkerOf(child));
  return { known: node.properties === undefined ? undefined : known, values, open, items };
}

let root: Walker | undefined;

/**
 * The Cluster's schema with every $ref resolved, ObjectMeta in place of the schema's open metadata, and the probe left
 * out (its own schema is closed and reports an unknown key as an error), as a Walker, made once.
 */
function clusterWalker(): Walker {
  if (root !== undefined) return root;
  const full = dereference(clusterSchema);
  const spec = full.properties?.spec ?? {};
  const schema: SchemaNode = {
    ...full,
    properties: {
      ...full.properties,
      metadata: OBJECT_META,
      spec: { ...spec, properties: { ...spec.properties, livenessProbe: ANY } },
    },
  };
  root = walkerOf(schema) ?? { known: new Map(), values: undefined, open: false, items: undefined };
  return root;
}

/** The longest path named in a message; a longer one (a key of a megabyte) is cut, ending in `...`. */
export const MAX_UNKNOWN_FIELD_PATH = 256;

interface Found {
  paths: string[];
  total: number;
}

// Paths are interned FieldPaths (apimachinery's notation, `spec.taints[1].efect`, as strict decoding prints them) for
// the fields the schema knows, turned into text only for a field that is reported: walking a valid Cluster builds no
// string. An unknown field's own name is never interned (FieldPath.leaf): names come from the request.
function walk(value: unknown, w: Walker, path: FieldPath, found: Found): void {
  if (w.items !== undefined) {
    if (w.items === null || !Array.isArray(value)) return;
    // Only an object (or an array) can hold a field: a hole, a string or a number of a sparse or huge array costs a
    // read, not a path.
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null) walk(item, w.items, path.index(i), found);
    }
    return;
  }
  if (!isRecord(value)) return;
  const { known, values, open } = w;
  for (const key in value) {
    const child = known?.get(key);
    if (child !== undefined) {
      if (child !== null) walk(value[key], child, path.child(key), found);
    } else if (values !== undefined) {
      if (values !== null) walk(value[key], values, path.key(key), found);
    } else if (!open && Object.prototype.hasOwnProperty.call(value, key)) {
      found.total++;
      if (found.paths.length < MAX_UNKNOWN_FIELDS)
        found.paths.push(clip(path.leaf(key).toString(), MAX_UNKNOWN_FIELD_PATH));
    }
  }
}

const ROOT = FieldPath.root('');

/**
 * Every field of `obj` that a Cluster does not have, in the order a `for...in` visits them (the document's order,
 * but for keys that look like array indices, `"7"`, which JavaScript puts first): the first MAX_UNKNOWN_FIELDS paths,
 * each cut to MAX_UNKNOWN_FIELD_PATH characters, and how many there are in all. An object that is not plain data (a
 * getter or a Proxy that throws) stops the walk: `unreadable` holds what it threw, and the paths found before it.
 */
export function unknownFields(obj: unknown): { paths: string[]; total: number; unreadable?: string } {
  const found: Found = { paths: [], total: 0 };
  try {
    walk(obj, clusterWalker(), ROOT, found);
  } catch (err) {
    return { paths: found.paths, total: found.total, unreadable: messageOf(err) };
  }
  return found;
}

/** kube-apiserver's words for one unknown field: a warning under Warn, one part of the refusal under Strict. */
export function unknownFieldMessage(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}

/**
 * kube-apiserver's refusal under fieldValidation=Strict, for the paths unknownFields() found:
 * `strict decoding error: unknown field "spec.livenessprobe", unknown field "statuz"`.
 */
export function strictDecodingError(paths: readonly string[]): string {
  return `strict decoding error: ${paths.map(unknownFieldMessage).join(', ')}`;
}
