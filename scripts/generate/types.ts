// Generates src/api/generated/types.ts (TypeScript types) from schemas/: one interface per titled object.
import {
  clusterSchema,
  healthCheckerAnnotationSchema,
  livenessProbeSchema,
  type SchemaNode,
} from '../../src/schema/schemas.js';

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

  private literal(node: SchemaNode, indent: string): string {
    const inner = `${indent}  `;
    const required = new Set(node.required ?? []);
    let s = '{\n';
    for (const [name, prop] of Object.entries(node.properties ?? {})) {
      s += comment(prop.description, inner);
      const type = name === 'metadata' && indent === '' ? 'ObjectMeta' : this.typeOf(prop, inner);
      s += `${inner}${name}${required.has(name) ? '' : '?'}: ${type};\n`;
    }
    return `${s}${indent}}`;
  }

  declare(name: string, node: SchemaNode): void {
    if (this.named.has(name)) return;
    this.named.set(name, '');
    const body = this.literal(node, '');
    this.named.set(name, `${comment(node.description, '')}export interface ${name} ${body}\n`);
    this.order.push(name);
  }

  render(): string {
    return HEADER + '\n' + this.order.map((n) => this.named.get(n)).join('\n');
  }
}

export function generateTypes(): string {
  const w = new TypeWriter();
  w.declare('LivenessProbe', livenessProbeSchema);
  w.declare('HealthCheckerAnnotation', healthCheckerAnnotationSchema);
  w.declare('Cluster', clusterSchema);
  return w.render();
}
