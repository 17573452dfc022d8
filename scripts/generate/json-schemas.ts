// Generates schemas/json/: JSON Schemas for tools that are not the apiserver (kubeconform, yaml-language-server, ajv),
// standalone (every $ref inlined) and strict (additionalProperties: false wherever the Go types of Karmada's
// cluster.karmada.io/v1alpha1 are closed; metadata stays open), draft-07, with no x-kubernetes-* keyword left.
// Every x-kubernetes-* keyword and CEL rule of schemas/ is translated into plain keywords here, or the generator throws:
// a new CEL rule must be translated or declared inexpressible. Rules the schema library adds in code that JSON Schema
// can say (name, label, header and port-name patterns) are added below; test/oracle/json-schema.test.ts holds the
// result to validateCluster row by row, and test/oracle/json-schema-differences.ts lists what JSON Schema cannot say.
import {
  API_VERSION,
  GROUP,
  KIND,
  LEGACY_ANNOTATION,
  PROBE_ANNOTATION,
  VERSION,
} from '../../packages/schema/src/api/constants.js';
import {
  clusterSchema,
  healthCheckerAnnotationSchema,
  livenessProbeSchema,
  schemasById,
  type SchemaNode,
} from '../../packages/schema/src/schema/schemas.js';
import {
  DNS1123_LABEL_FMT,
  DNS1123_SUBDOMAIN_FMT,
  HTTP_HEADER_NAME_FMT,
  LABEL_VALUE_FMT,
  QUALIFIED_NAME_FMT,
} from '../../packages/schema/src/schema/k8s-names.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Node = { [key: string]: Json };

/**
 * draft-07: kubeconform's compiler (santhosh-tekuri/jsonschema v6) asserts `format` for drafts before 2019 only
 * (later drafts make formats annotations unless the caller opts in, which kubeconform does not); ajv's default
 * class is draft-07; yaml-language-server's own validator implements draft-07 fully and newer drafts only in part.
 */
export const JSON_SCHEMA_DRAFT = 'http://json-schema.org/draft-07/schema#';

/** Where the generated files go, and the layouts that resolve them. */
export const JSON_SCHEMA_DIR = 'schemas/json';
const kind = KIND.toLowerCase();
export const JSON_SCHEMA_FILES = {
  /** datreeio/CRDs-catalog layout; kubeconform `-schema-location '<dir>/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'`. */
  catalog: `${JSON_SCHEMA_DIR}/${GROUP}/${kind}_${VERSION}.json`,
  /** `{kind}-{group}-{version}.json`; kubeconform `'<dir>/{{.ResourceKind}}-{{.Group}}-{{.ResourceAPIVersion}}.json'`. */
  kindGroupVersion: `${JSON_SCHEMA_DIR}/${kind}-${GROUP}-${VERSION}.json`,
  /**
   * yannh/kubernetes-json-schema's own names: kubeconform's `{{.KindSuffix}}` is `-<first label of the group>-<version>`
   * (`'<dir>/{{.ResourceKind}}{{.KindSuffix}}.json'`).
   */
  kindSuffix: `${JSON_SCHEMA_DIR}/${kind}-${GROUP.split('.')[0] ?? GROUP}-${VERSION}.json`,
  /** The JSON held by annotation cluster.karmada.io/liveness-probe. */
  probeAnnotation: `${JSON_SCHEMA_DIR}/annotations/liveness-probe.json`,
  /** The JSON held by the legacy annotation cluster.karmada.io/health-checker. */
  healthCheckerAnnotation: `${JSON_SCHEMA_DIR}/annotations/health-checker.json`,
} as const;

/**
 * A subschema that requires `names`. It names them under `properties` too (as `true`) and says `type`: ajv's
 * strictRequired refuses a required property that its own schema object does not define, strictTypes a `required`
 * without `type: object`.
 */
const requires = (names: string[]): Node => ({
  type: 'object',
  properties: Object.fromEntries(names.map((n) => [n, true])),
  required: names,
});

/**
 * kubeconform's -schema-location for each layout above, relative to the repository (kubeconform lowercases
 * ResourceKind; Group and ResourceAPIVersion are split from apiVersion as written).
 */
export const KUBECONFORM_SCHEMA_LOCATIONS = {
  catalog: `${JSON_SCHEMA_DIR}/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`,
  kindGroupVersion: `${JSON_SCHEMA_DIR}/{{.ResourceKind}}-{{.Group}}-{{.ResourceAPIVersion}}.json`,
  kindSuffix: `${JSON_SCHEMA_DIR}/{{.ResourceKind}}{{.KindSuffix}}.json`,
} as const;

// --- Kubernetes' name rules as patterns (apimachinery util/validation, as packages/schema/src/schema/k8s-names.ts applies them).
// Each pattern is valid in ECMA-262 (ajv, yaml-language-server) and in Go's RE2 (kubeconform): no look-around, no
// back-references. JSON Schema's `pattern` is unanchored, so each is anchored here.
const DNS1123_LABEL = DNS1123_LABEL_FMT;
const DNS1123_SUBDOMAIN = DNS1123_SUBDOMAIN_FMT;
const QUALIFIED_NAME = QUALIFIED_NAME_FMT;

/** A label value (provider, region, zone, zones, taint values): ASCII only, so bytes and characters count alike. */
const LABEL_VALUE: Node = { maxLength: 63, pattern: `^${LABEL_VALUE_FMT}$` };
/** A qualified name (taint keys): an optional DNS subdomain prefix of at most 253 and '/', a name of at most 63. */
const QUALIFIED: Node = {
  allOf: [{ pattern: `^(${DNS1123_SUBDOMAIN}/)?${QUALIFIED_NAME}$` }, { pattern: '^([^/]{1,253}/)?[^/]{1,63}$' }],
};
const DNS_LABEL: Node = { maxLength: 63, pattern: `^${DNS1123_LABEL}$` };
/** An IANA service name as a named port: at most 15, [a-z0-9-], a letter, no '--', no hyphen at either end. */
const PORT_NAME: Node = {
  maxLength: 15,
  allOf: [{ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }, { pattern: '[a-z]' }],
};
/** A probe host: an IP address or a DNS-1123 subdomain. */
const HOST: Node = {
  anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }, { maxLength: 253, pattern: `^${DNS1123_SUBDOMAIN}$` }],
};
const ABSOLUTE_PATH: Node = { pattern: '^/' };
const HEADER_NAME: Node = { pattern: `^${HTTP_HEADER_NAME_FMT}$` };

/**
 * metadata: open (the apiserver's ObjectMeta, as kubeconform's own schemas keep it), with Karmada's cluster name (a
 * DNS-1123 label of at most 48) or a generateName.
 */
const METADATA: Node = {
  description: 'Standard object metadata. The name must be a DNS-1123 label of at most 48 characters.',
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 48, pattern: `^(${DNS1123_LABEL})?$` },
    generateName: { type: 'string' },
  },
  anyOf: [
    { required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
    { required: ['generateName'], properties: { generateName: { type: 'string', minLength: 1 } } },
  ],
};

/**
 * Karmada's apiEndpoint as far as a pattern can follow Go's url.Parse: a scheme, `://`, a host, no user information,
 * no query, no fragment (the port's range and IPv6 brackets are left to the library).
 */
const API_ENDPOINT: Node = { pattern: '^$|^[A-Za-z][-+.A-Za-z0-9]*://[^/?#@]+(/[^?#]*)?$' };
const NON_EMPTY: Node = { minLength: 1 };
/** apimachinery's quantity expression (resource.Quantity), around the white space the library trims. */
const QUANTITY: Node = { pattern: '^\\s*([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)\\s*$' };

/** The probe's handlers that dial a host of their own (httpGet, tcpSocket, grpc), read from schemas/. */
const HOST_HANDLERS = Object.entries(livenessProbeSchema.properties ?? {})
  .filter(([, v]) => v.properties?.host !== undefined)
  .map(([k]) => k);

/** Rules between fields of spec that draft-07 says with if/then. */
const SPEC_RULES: Node[] = [
  // apiServer probes through the member's own API: it needs spec.apiEndpoint, and a Push cluster's credentials.
  {
    if: { properties: { livenessProbe: requires(['apiServer']) }, required: ['livenessProbe'] },
    then: requires(['apiEndpoint']),
  },
  {
    if: {
      properties: { syncMode: { const: 'Push' }, livenessProbe: requires(['apiServer']) },
      required: ['syncMode', 'livenessProbe'],
    },
    then: requires(['secretRef']),
  },
  // Without spec.apiEndpoint a probe has no default host.
  {
    if: { not: requires(['apiEndpoint']) },
    then: {
      properties: {
        livenessProbe: {
          type: 'object',
          properties: Object.fromEntries(HOST_HANDLERS.map((h) => [h, requires(['host'])])),
        },
      },
    },
  },
];

/** Keywords added at a path of a source schema (by $id): `a.b` for properties, `a[]` for items. */
const ADDED: Record<string, Record<string, Node>> = {
  'cluster.schema.json': {
    spec: { allOf: SPEC_RULES },
    'spec.apiEndpoint': API_ENDPOINT,
    'spec.secretRef.namespace': NON_EMPTY,
    'spec.secretRef.name': NON_EMPTY,
    'spec.impersonatorSecretRef.namespace': NON_EMPTY,
    'spec.impersonatorSecretRef.name': NON_EMPTY,
    'spec.provider': LABEL_VALUE,
    'spec.region': LABEL_VALUE,
    'spec.zone': LABEL_VALUE,
    'spec.zones[]': LABEL_VALUE,
    'spec.taints[].key': QUALIFIED,
    'spec.taints[].value': LABEL_VALUE,
  },
  'liveness-probe.schema.json': {
    'httpGet.host': HOST,
    'tcpSocket.host': HOST,
    'grpc.host': HOST,
    'httpGet.path': ABSOLUTE_PATH,
    'apiServer.path': ABSOLUTE_PATH,
    'httpGet.httpHeaders[].name': HEADER_NAME,
  },
  'health-checker-annotation.schema.json': {
    'service.namespace': DNS_LABEL,
    'service.name': DNS_LABEL,
    'service.port': { minimum: 1, maximum: 65535 },
    'service.path': ABSOLUTE_PATH,
  },
};

/** The string side of an int-or-string at a path: a named port, a quantity. */
const STRING_SIDE: Record<string, Record<string, Node>> = {
  'cluster.schema.json': {
    'spec.resourceModels[].ranges[].min': QUANTITY,
    'spec.resourceModels[].ranges[].max': QUANTITY,
  },
  'liveness-probe.schema.json': { 'httpGet.port': PORT_NAME, 'tcpSocket.port': PORT_NAME },
};

const INT32: Node = { minimum: -2147483648, maximum: 2147483647 };
/** int64 as the schema library reads it: an integer a JSON number holds exactly. */
const INT64: Node = { minimum: -9007199254740991, maximum: 9007199254740991 };

interface Rule {
  rule: string;
  message: string;
}

const hasList = (text: string): string[] | undefined => {
  const names = [...text.matchAll(/has\(self\.(\w+)\)/g)].map((m) => m[1] ?? '');
  return names.length > 0 ? names : undefined;
};

/**
 * CEL rules as plain keywords. `integer` applies to the integer side of an int-or-string. Returns undefined for a rule
 * it does not know, which the caller turns into an error.
 */
function translateRule(rule: string): { node?: Node; integer?: Node } | undefined {
  if (rule === 'type(self) == string || (self >= 1 && self <= 65535)')
    return { integer: { minimum: 1, maximum: 65535 } };
  if (rule === 'self >= 1 && self <= 65535') return { node: { minimum: 1, maximum: 65535 } };
  if (rule === "self == '' || self.matches('^(?i)(https?|socks5):')")
    // RE2 has (?i) and ECMA-262 has not: the case-insensitive scheme spelled out.
    return { node: { pattern: '^$|^([Hh][Tt][Tt][Pp][Ss]?|[Ss][Oo][Cc][Kk][Ss]5):' } };
  const notBoth = /^!has\(self\.(\w+)\) \|\| !has\(self\.(\w+)\)$/.exec(rule);
  if (notBoth) return { node: { not: requires([notBoth[1] ?? '', notBoth[2] ?? '']) } };
  if (/^has\(self\.\w+\)( \|\| has\(self\.\w+\))*$/.test(rule))
    return { node: { anyOf: (hasList(rule) ?? []).map((h) => requires([h])) } };
  if (/^\[has\(self\.\w+\)(, has\(self\.\w+\))*\]\.filter\(x, x\)\.size\(\) <= 1$/.test(rule)) {
    const names = hasList(rule) ?? [];
    const pairs = names.flatMap((a, i) => names.slice(i + 1).map((b) => requires([a, b])));
    return { node: { not: { anyOf: pairs } } };
  }
  return undefined;
}

/** The rules of one node as keywords; "at least one of" and "at most one of" the same fields become one oneOf. */
function translateRules(rules: readonly Rule[], where: string): { node: Node; integer: Node } {
  const node: Node = {};
  const integer: Node = {};
  const allOf: Json[] = [];
  const atLeast = rules.find((r) => /^has\(self\.\w+\)( \|\| has\(self\.\w+\))+$/.test(r.rule));
  const atMost = rules.find((r) => r.rule.endsWith('.filter(x, x).size() <= 1'));
  let rest = rules;
  if (atLeast && atMost && JSON.stringify(hasList(atLeast.rule)) === JSON.stringify(hasList(atMost.rule))) {
    node.oneOf = (hasList(atLeast.rule) ?? []).map((h) => requires([h]));
    rest = rules.filter((r) => r !== atLeast && r !== atMost);
  }
  for (const r of rest) {
    const t = translateRule(r.rule);
    if (t === undefined)
      throw new Error(
        `${where}: CEL rule ${JSON.stringify(r.rule)} has no JSON Schema translation in scripts/generate/json-schemas.ts; add one, or list the rule as inexpressible there and in test/oracle/json-schema-differences.ts`,
      );
    if (t.node) allOf.push(t.node);
    if (t.integer) Object.assign(integer, t.integer);
  }
  if (allOf.length === 1) Object.assign(node, allOf[0]);
  else if (allOf.length > 1) node.allOf = allOf;
  return { node, integer };
}

/** `extra` merged into `node`: the smaller of two limits, two allOfs concatenated; any other clash is a bug. */
function merge(node: Node, extra: Node, where: string): Node {
  const out: Node = { ...node };
  for (const [k, v] of Object.entries(extra)) {
    const have = out[k];
    if (have === undefined || JSON.stringify(have) === JSON.stringify(v)) out[k] = v;
    else if ((k === 'maxLength' || k === 'maximum') && typeof have === 'number' && typeof v === 'number')
      out[k] = Math.min(have, v);
    else if (k === 'minimum' && typeof have === 'number' && typeof v === 'number') out[k] = Math.max(have, v);
    else if (k === 'allOf' && Array.isArray(out[k]) && Array.isArray(v)) out[k] = [...out[k], ...v];
    else throw new Error(`${where}: ${k} is set both by schemas/ and by json-schemas.ts`);
  }
  return out;
}

const DROPPED = new Set([
  '$id',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-validations',
]);

/** One node of schema `id` at `path`, converted. */
function convert(source: SchemaNode, id: string, path: string): Node {
  if (source.$ref !== undefined) {
    const target = schemasById[source.$ref];
    if (target === undefined) throw new Error(`${id} ${path}: $ref ${source.$ref} names no schema in schemas/`);
    const { $ref: _ref, ...local } = source;
    return { ...convert(target, source.$ref, ''), ...convert(local, id, path) };
  }
  const where = `${id} ${path || '(root)'}`;
  const child = (key: string) => (path === '' ? key : `${path}.${key}`);
  const n = source as Record<string, unknown>;
  let out: Node = {};
  for (const [k, v] of Object.entries(n)) {
    if (DROPPED.has(k) || k === 'properties' || k === 'items' || k === 'additionalProperties') continue;
    if (k.startsWith('x-')) throw new Error(`${where}: ${k} has no JSON Schema translation`);
    if (k === 'format' && (v === 'int32' || v === 'int64')) Object.assign(out, v === 'int32' ? INT32 : INT64);
    else out[k] = v as Json;
  }
  if (source.properties !== undefined)
    out.properties = Object.fromEntries(
      Object.entries(source.properties).map(([k, v]) => [k, convert(v, id, child(k))]),
    );
  if (source.items !== undefined) out.items = convert(source.items, id, `${path}[]`);
  // Closed wherever the Go type is a struct: every object that lists its properties, unless the source keeps
  // unknown fields (x-kubernetes-preserve-unknown-fields) or says what additional properties are.
  if (typeof source.additionalProperties === 'object')
    out.additionalProperties = convert(source.additionalProperties, id, `${path}{}`);
  else if (source.additionalProperties === false) out.additionalProperties = false;
  else if (source.properties !== undefined && source['x-kubernetes-preserve-unknown-fields'] !== true)
    out.additionalProperties = false;

  const rules = translateRules(source['x-kubernetes-validations'] ?? [], where);
  if (source['x-kubernetes-int-or-string'] === true) {
    const { description, ...constraints } = out;
    if (Object.keys(constraints).some((k) => k !== 'default'))
      throw new Error(`${where}: an int-or-string with keywords of its own is not translated`);
    const stringSide = STRING_SIDE[id]?.[path] ?? {};
    out = {
      ...(description === undefined ? {} : { description }),
      anyOf: [
        { type: 'integer', ...rules.integer },
        { type: 'string', ...stringSide },
      ],
    };
  } else if (Object.keys(rules.integer).length > 0) {
    throw new Error(`${where}: an int-or-string rule on a node that is not int-or-string`);
  }
  out = merge(out, rules.node, where);
  const added = ADDED[id]?.[path];
  if (added !== undefined) out = merge(out, added, where);
  return out;
}

function withDraft(title: string, body: Node): Node {
  return { $schema: JSON_SCHEMA_DRAFT, ...body, title };
}

/** The Cluster: standalone, strict, GVK pinned. */
export function clusterJsonSchema(): Node {
  const converted = convert(clusterSchema, 'cluster.schema.json', '');
  const properties = converted.properties as Node;
  const apiVersion = properties.apiVersion as Node;
  const kindNode = properties.kind as Node;
  properties.apiVersion = { ...apiVersion, enum: [API_VERSION] };
  properties.kind = { ...kindNode, enum: [KIND] };
  properties.metadata = METADATA;
  // kubeconform finds the schema by apiVersion and kind, and kubectl refuses a manifest without them or metadata.
  converted.required = ['apiVersion', 'kind', 'metadata', ...((converted.required as string[] | undefined) ?? [])];
  const { title: _title, ...body } = converted;
  return withDraft(`${KIND} (${API_VERSION})`, body);
}

export function probeAnnotationJsonSchema(): Node {
  const { title: _title, description, ...body } = convert(livenessProbeSchema, 'liveness-probe.schema.json', '');
  return withDraft(`annotation ${PROBE_ANNOTATION}`, {
    ...body,
    description: `The JSON value of annotation ${PROBE_ANNOTATION}. ${String(description)}`,
  });
}

export function healthCheckerAnnotationJsonSchema(): Node {
  const {
    title: _title,
    description,
    ...body
  } = convert(healthCheckerAnnotationSchema, 'health-checker-annotation.schema.json', '');
  return withDraft(`annotation ${LEGACY_ANNOTATION}`, { ...body, description: String(description) });
}

/**
 * JSON as prettier prints it (printWidth 120): objects always broken (prettier keeps an object broken when its first
 * key is on a new line), an array of scalars on one line when it fits, else one item a line.
 */
export function prettyJson(value: Json, indent = '', column = 0): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object')) {
      const flat = `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
      if (column + flat.length <= 120) return flat;
    }
    return `[\n${value.map((v) => `${inner}${prettyJson(v, inner, inner.length)}`).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries
      .map(([k, v]) => {
        const head = `${inner}${JSON.stringify(k)}: `;
        // a trailing comma follows every value but the last; prettier counts it against the width
        return `${head}${prettyJson(v, inner, head.length + 1)}`;
      })
      .join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** Every file of schemas/json, by repository path. */
export function generateJsonSchemas(): Record<string, string> {
  const cluster = `${prettyJson(clusterJsonSchema())}\n`;
  return {
    [JSON_SCHEMA_FILES.catalog]: cluster,
    [JSON_SCHEMA_FILES.kindGroupVersion]: cluster,
    [JSON_SCHEMA_FILES.kindSuffix]: cluster,
    [JSON_SCHEMA_FILES.probeAnnotation]: `${prettyJson(probeAnnotationJsonSchema())}\n`,
    [JSON_SCHEMA_FILES.healthCheckerAnnotation]: `${prettyJson(healthCheckerAnnotationJsonSchema())}\n`,
  };
}
