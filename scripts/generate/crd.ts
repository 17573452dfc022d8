// Generates manifests/crd/cluster.karmada.io_clusters.yaml from schemas/: the structural schema (with $refs
// inlined and additionalProperties:false dropped, which a CRD forbids beside properties), status subresource,
// printer columns for the probe and the Healthy condition, and the CEL rules the schemas declare.
import { stringify } from 'yaml';
import { clusterSchema, dereference, type SchemaNode } from '../../packages/schema/src/schema/schemas.js';
import { GROUP, KIND, PLURAL, VERSION } from '../../packages/schema/src/api/constants.js';

/** The schema as a CRD accepts it. */
export function structural(node: SchemaNode): SchemaNode {
  const out: SchemaNode = { ...node };
  delete out.$id;
  delete out.title;
  if (out.additionalProperties === false) delete out.additionalProperties;
  if (node.properties !== undefined)
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, structural(v)]));
  if (node.items !== undefined) out.items = structural(node.items);
  if (typeof node.additionalProperties === 'object') out.additionalProperties = structural(node.additionalProperties);
  return out;
}

/**
 * The apiserver allows nothing at the root `metadata` of a CRD schema but `type: object` and restrictions of
 * name/generateName: the description goes, and Karmada's 48-character limit on the name is declared there so that the
 * apiserver reports it at metadata.name (the library words it as Karmada does).
 */
const CRD_METADATA: SchemaNode = { type: 'object', properties: { name: { type: 'string', maxLength: 48 } } };

export function crdObject(): Record<string, unknown> {
  const schema = structural(dereference(clusterSchema));
  schema.properties = { ...schema.properties, metadata: CRD_METADATA };
  const healthy = '.status.conditions[?(@.type=="Healthy")]';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${PLURAL}.${GROUP}`,
      annotations: { 'cluster-probe.karmada.io/generated-from': 'schemas/cluster.schema.json' },
    },
    spec: {
      group: GROUP,
      names: { kind: KIND, listKind: `${KIND}List`, plural: PLURAL, singular: 'cluster', categories: ['karmada'] },
      scope: 'Cluster',
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Version', type: 'string', jsonPath: '.status.kubernetesVersion' },
            { name: 'Mode', type: 'string', jsonPath: '.spec.syncMode' },
            { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
            { name: 'Healthy', type: 'string', jsonPath: `${healthy}.status` },
            { name: 'Probe-Reason', type: 'string', jsonPath: `${healthy}.reason`, priority: 1 },
            { name: 'Probe-Period', type: 'integer', jsonPath: '.spec.livenessProbe.periodSeconds', priority: 1 },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: { openAPIV3Schema: schema },
        },
      ],
    },
  };
}

export function generateCrd(): string {
  return `# Generated from schemas/ by \`npm run generate\`. Do not edit: change the schema and regenerate.\n${stringify(crdObject(), { lineWidth: 0 })}`;
}
