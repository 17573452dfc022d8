// Where a control plane can store a Cluster's probe, from discovery: the OpenAPI of clusters.cluster.karmada.io
// (does its Cluster schema know spec.livenessProbe?) and the APIService v1alpha1.cluster.karmada.io (served by an
// aggregated apiserver, as karmada-aggregated-apiserver, whose Go types drop the field while answering 200). The
// annotation is stored by every apiserver; the field only where the schema has it. The decision is a pure function
// of what discovery answered; the lookup takes any client with `request(method, path)`. Knows no Kubernetes client.
import { GROUP, VERSION } from '@karmada-cluster-probe/schema';
import { isRecord, messageOf } from '@karmada-cluster-probe/schema/api';
import {
  aggregatedClusterApiServices,
  APISERVICES_PATH,
  describeApiService,
  statusOf,
  type APIServiceLike,
  type ApiRequester,
} from './karmada-guard.js';

/** The OpenAPI v3 document of the Cluster API's group version (kube-apiserver aggregates an APIService's own). */
export const CLUSTER_OPENAPI_PATH = `/openapi/v3/apis/${GROUP}/${VERSION}`;

export interface ProbeStorage {
  /** true: spec.livenessProbe is stored; false: it is dropped or refused; undefined: discovery could not tell. */
  field: boolean | undefined;
  /** Why, in a sentence or two a user can act on. */
  reason: string;
}

/** What discovery answered: a document or list, or the error (a status of 401/403/404 among them). */
export type Answer<T> = { ok: T } | { error: string; status?: number | undefined };

type Schemas = Record<string, unknown>;

/** A `$ref`, or the first `allOf` member's (how Go's OpenAPI generator wraps a field with a default). */
function resolve(schema: unknown, schemas: Schemas): Record<string, unknown> | undefined {
  if (!isRecord(schema)) return undefined;
  const allOf = schema.allOf;
  const ref =
    typeof schema.$ref === 'string'
      ? schema.$ref
      : Array.isArray(allOf) && isRecord(allOf[0])
        ? allOf[0].$ref
        : undefined;
  if (typeof ref !== 'string') return schema;
  const target = schemas[ref.replace(/^#\/components\/schemas\//, '')];
  return isRecord(target) ? target : undefined;
}

/**
 * Does the OpenAPI v3 document say Cluster's spec has livenessProbe? undefined when the document has no Cluster
 * schema of this group and version (nothing to tell by). A spec that keeps unknown fields stores the field too.
 */
export function fieldInOpenApi(doc: unknown): boolean | undefined {
  const schemas = isRecord(doc) && isRecord(doc.components) ? doc.components.schemas : undefined;
  if (!isRecord(schemas)) return undefined;
  for (const schema of Object.values(schemas)) {
    if (!isRecord(schema) || !Array.isArray(schema['x-kubernetes-group-version-kind'])) continue;
    const gvks = schema['x-kubernetes-group-version-kind'] as unknown[];
    const isCluster = gvks.some(
      (g) => isRecord(g) && g.group === GROUP && g.version === VERSION && g.kind === 'Cluster',
    );
    if (!isCluster || !isRecord(schema.properties)) continue;
    const spec = resolve(schema.properties.spec, schemas);
    if (spec === undefined) return undefined;
    if (spec['x-kubernetes-preserve-unknown-fields'] === true) return true;
    return isRecord(spec.properties) && 'livenessProbe' in spec.properties;
  }
  return undefined;
}

/**
 * Where the probe can be stored, from the OpenAPI document and the APIServices (either may be an error). The OpenAPI
 * decides when it has a Cluster schema; else an aggregated APIService for the group means Karmada's aggregated
 * apiserver (no such field in its types); else nobody can tell. Pure.
 */
export function probeStorageOf(
  openApi: Answer<unknown>,
  apiServices: Answer<readonly APIServiceLike[]>,
  server?: string,
): ProbeStorage {
  const where = server !== undefined ? `the apiserver at ${server}` : 'the apiserver';
  const aggregated = 'ok' in apiServices ? aggregatedClusterApiServices(apiServices.ok) : [];
  const servedBy = aggregated.length > 0 ? `; ${aggregated.map(describeApiService).join('; ')}` : '';
  const known = 'ok' in openApi ? fieldInOpenApi(openApi.ok) : undefined;
  if (known === true)
    return {
      field: true,
      reason: `${where} stores spec.livenessProbe: its OpenAPI for ${GROUP}/${VERSION} Cluster has the field`,
    };
  if (known === false)
    return {
      field: false,
      reason:
        `${where} does not store spec.livenessProbe: its OpenAPI for ${GROUP}/${VERSION} Cluster has no such ` +
        `field, so it drops the field (answering 200) or refuses it${servedBy}`,
    };
  if (aggregated.length > 0)
    return {
      field: false,
      reason:
        `${where} does not store spec.livenessProbe${servedBy}: Karmada's Cluster type has no such field, so it ` +
        'drops it (answering 200)',
    };
  const failures = [openApi, apiServices]
    .map((a, i) => ('error' in a ? `${i === 0 ? CLUSTER_OPENAPI_PATH : APISERVICES_PATH}: ${a.error}` : undefined))
    .filter((x): x is string => x !== undefined);
  return {
    field: undefined,
    reason:
      `cannot tell whether ${where} stores spec.livenessProbe` +
      (failures.length > 0
        ? ` (${failures.join('; ')})`
        : ' (no Cluster schema in its OpenAPI, no aggregated APIService)'),
  };
}

async function ask<T>(api: ApiRequester, path: string): Promise<Answer<T>> {
  try {
    return { ok: await api.request<T>('GET', path) };
  } catch (err) {
    return { error: messageOf(err), status: statusOf(err) };
  }
}

/** Asks the apiserver behind `api` where a probe can be stored. Never throws: what it cannot learn it says. */
export async function discoverProbeStorage(api: ApiRequester, server?: string): Promise<ProbeStorage> {
  const [openApi, list] = await Promise.all([
    ask<unknown>(api, CLUSTER_OPENAPI_PATH),
    ask<{ items?: APIServiceLike[] }>(api, APISERVICES_PATH),
  ]);
  // No aggregation API at all (404): no aggregated apiserver either.
  const apiServices: Answer<readonly APIServiceLike[]> =
    'ok' in list ? { ok: list.ok.items ?? [] } : list.status === 404 ? { ok: [] } : list;
  return probeStorageOf(openApi, apiServices, server);
}
