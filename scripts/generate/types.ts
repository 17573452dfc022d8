// Generates packages/schema/src/api/generated/types.ts (TypeScript types) from schemas/: one interface per titled object; the rules
// a type can carry are carried: LivenessProbe is a union that admits exactly one handler (the handlers as
// probe-facts.ts reads them from the schema), and a Cluster's apiVersion and kind are the literals packages/schema/src/api names.
import { API_VERSION, KIND } from '../../packages/schema/src/api/constants.js';
import {
  clusterSchema,
  healthCheckerAnnotationSchema,
  livenessProbeSchema,
  type SchemaNode,
} from '../../packages/schema/src/schema/schemas.js';
import { probeFacts } from './probe-facts.js';

const HEADER = `// Generated from schemas/ by \`npm run generate\`. Do not edit: change the schema and regenerate.

/** The parts of Kubernetes' ObjectMeta this library reads; the schema leaves metadata to the apiserver. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}
`;

function comment(text: string | undefined, indent: string): string {
  if (text === undefined) return '';
  return `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n`;
}

class TypeWriter {
  private readonly named = new Map<string, string>();
  private readonly order: string[] = [];

  typeOf(node: SchemaNode, indent: string): string {
    if (node.$ref !== undefined) {
      const refName = { 'liveness-probe.schema.json': 'LivenessProbe' }[node.$ref];
      if (refName === undefined) throw new Error(`types: unknown $ref ${node.$ref}`);
      return refName;
    }
    if (node['x-kubernetes-int-or-string'] === true) return 'number | string';
    if (node.enum !== undefined)
      return node.enum.map((v) => (typeof v === 'string' ? `'${v.replace(/'/g, "\\'")}'` : String(v))).join(' | ');
    switch (node.type) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'array':
        return `${this.wrap(this.typeOf(node.items ?? {}, indent))}[]`;
      case 'object':
        if (node.properties === undefined) {
          if (typeof node.additionalProperties === 'object')
            return `Record<string, ${this.typeOf(node.additionalProperties, indent)}>`;
          return 'Record<string, unknown>';
        }
        if (node.title !== undefined) {
          this.declare(node.title, node);
          return node.title;
        }
        return this.literal(node, indent);
      default:
        return 'unknown';
    }
  }

  private wrap(t: string): string {
    return t.includes('|') ? `(${t})` : t;
  }

  private literal(node: SchemaNode, indent: string, literals: Record<string, string> = {}): string {
    const inner = `${indent}  `;
    const required = new Set(node.required ?? []);
    let s = '{\n';
    for (const [name, prop] of Object.entries(node.properties ?? {})) {
      s += comment(prop.description, inner);
      const type = literals[name] ?? (name === 'metadata' && indent === '' ? 'ObjectMeta' : this.typeOf(prop, inner));
      s += `${inner}${name}${required.has(name) ? '' : '?'}: ${type};\n`;
    }
    return `${s}${indent}}`;
  }

  /** `export interface name {...}`; `literals` gives some properties a literal type in place of the schema's. */
  declare(name: string, node: SchemaNode, literals: Record<string, string> = {}): void {
    if (this.named.has(name)) return;
    this.named.set(name, '');
    const body = this.literal(node, '', literals);
    this.named.set(name, `${comment(node.description, '')}export interface ${name} ${body}\n`);
    this.order.push(name);
  }

  /**
   * The probe as a union of one member a handler: that handler required, every other one `?: never`, so that a
   * probe with none or two does not type-check. `LivenessProbeHandlers` (each optional) and `LivenessProbeTiming`
   * hold the fields and their descriptions; the union picks from them.
   */
  declareProbe(node: SchemaNode, handlers: readonly string[]): void {
    const props = node.properties ?? {};
    const pick = (keep: (name: string) => boolean): SchemaNode => ({
      type: 'object',
      properties: Object.fromEntries(Object.entries(props).filter(([n]) => keep(n))),
    });
    this.declareAs(
      'LivenessProbeHandlers',
      pick((n) => handlers.includes(n)),
      'The handlers of a LivenessProbe, each optional here; a LivenessProbe has exactly one of them.',
    );
    this.declareAs(
      'LivenessProbeTiming',
      pick((n) => !handlers.includes(n)),
      'The fields of a LivenessProbe besides its handler: when it runs, its timeout and its thresholds.',
    );
    const members = handlers.map((h) => {
      const others = handlers.filter((o) => o !== h).map((o) => `${o}?: never`);
      const rest = `Required<Pick<LivenessProbeHandlers, '${h}'>> & { ${others.join('; ')} })`;
      // As prettier writes it: on one line when it fits in 120 columns, else broken after the first `&`.
      const line = `  | (LivenessProbeTiming & ${rest}`;
      return line.length <= 120 ? line : `  | (LivenessProbeTiming &\n      ${rest}`;
    });
    this.named.set(
      'LivenessProbe',
      `${comment(node.description, '')}export type LivenessProbe =\n${members.join('\n')};\n`,
    );
    this.order.push('LivenessProbe');
  }

  private declareAs(name: string, node: SchemaNode, description: string): void {
    this.declare(name, { ...node, description });
  }

  render(): string {
    return HEADER + '\n' + this.order.map((n) => this.named.get(n)).join('\n');
  }
}

export function generateTypes(): string {
  const w = new TypeWriter();
  w.declareProbe(livenessProbeSchema, probeFacts(livenessProbeSchema).handlers);
  w.declare('HealthCheckerAnnotation', healthCheckerAnnotationSchema);
  w.declare('Cluster', clusterSchema, { apiVersion: `'${API_VERSION}'`, kind: `'${KIND}'` });
  return w.render();
}
