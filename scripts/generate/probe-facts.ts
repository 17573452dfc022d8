// Generates packages/schema/src/api/generated/probe-facts.ts from schemas/liveness-probe.schema.json: the handler list (the probe's
// object-valued properties, in the schema's order), the timing fields with their `default`s and `minimum`s, and each
// handler's field defaults. The schema library and the probe engine both read them from packages/schema/src/api, so a default or a handler is changed
// in the schema alone; test/unit/api/agreement.test.ts holds the engine and the CRD to it.
import { livenessProbeSchema, type SchemaNode } from '../../packages/schema/src/schema/schemas.js';

const HEADER = `// Generated from schemas/liveness-probe.schema.json by \`npm run generate\`. Do not edit: change the schema and
// regenerate. The one table of the probe's handlers and defaults, read by the schema library and the probe engine.
`;

function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return JSON.stringify(value);
}

/** An array literal on one line when it fits prettier's 120 columns, else one item a line. */
function arrayLiteral(prefix: string, items: string[], suffix: string): string {
  const line = `${prefix}[${items.join(', ')}]${suffix}`;
  return line.length <= 120 ? line : `${prefix}[\n${items.map((i) => `  ${i},\n`).join('')}]${suffix}`;
}

function objectLiteral(entries: [string, string][], indent: string): string {
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${indent}  ${k}: ${v},\n`).join('')}${indent}}`;
}

export interface ProbeFacts {
  handlers: string[];
  timing: { name: string; minimum: number; default?: number }[];
  handlerDefaults: Record<string, Record<string, unknown>>;
}

/** The facts the schema states, read from it (also used by the agreement test). */
export function probeFacts(schema: SchemaNode = livenessProbeSchema): ProbeFacts {
  const facts: ProbeFacts = { handlers: [], timing: [], handlerDefaults: {} };
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    if (node.type === 'object') {
      facts.handlers.push(name);
      const defaults: Record<string, unknown> = {};
      for (const [field, f] of Object.entries(node.properties ?? {}))
        if (f.default !== undefined) defaults[field] = f.default;
      facts.handlerDefaults[name] = defaults;
    } else if (node.type === 'integer') {
      if (node.minimum === undefined) throw new Error(`probe-facts: ${name} has no minimum`);
      facts.timing.push({
        name,
        minimum: node.minimum,
        ...(typeof node.default === 'number' ? { default: node.default } : {}),
      });
    } else throw new Error(`probe-facts: ${name} is neither a handler nor a timing field`);
  }
  return facts;
}

export function generateProbeFacts(): string {
  const f = probeFacts();
  const defaults = f.timing
    .filter((t) => t.default !== undefined)
    .map((t): [string, string] => [t.name, literal(t.default)]);
  const minimums = f.timing.map((t): [string, string] => [t.name, literal(t.minimum)]);
  const perHandler = f.handlers.map((h): [string, string] => [
    h,
    objectLiteral(
      Object.entries(f.handlerDefaults[h] ?? {}).map(([k, v]): [string, string] => [k, literal(v)]),
      '  ',
    ),
  ]);
  return `${HEADER}
/** The probe's handlers, in the schema's order: a probe sets exactly one. */
${arrayLiteral('export const HANDLERS = ', f.handlers.map(literal), ' as const;')}
export type HandlerName = (typeof HANDLERS)[number];

/** The timing fields, in the schema's order. */
${arrayLiteral(
  'export const TIMING_FIELDS = ',
  f.timing.map((t) => literal(t.name)),
  ' as const;',
)}
export type TimingField = (typeof TIMING_FIELDS)[number];

/**
 * The timing defaults, the schema's \`default\`s (the kubelet's SetDefaults_Probe): only these are filled in. A timing
 * field not listed here is never written; absent, it means Go's zero value, 0.
 */
export const TIMING_DEFAULTS = Object.freeze(${objectLiteral(defaults, '')} as const);

/** The least value each timing field may take (the schema's \`minimum\`). */
export const TIMING_MINIMUMS: Readonly<Record<TimingField, number>> = Object.freeze(${objectLiteral(minimums, '')});

/** The fields each handler defaults when they are left out. */
export const HANDLER_DEFAULTS = Object.freeze(${objectLiteral(perHandler, '')} as const);
`;
}
