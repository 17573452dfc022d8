// Refuses to put the Cluster CRD on a Karmada control plane. There, clusters.cluster.karmada.io is served by
// karmada-aggregated-apiserver behind the APIService v1alpha1.cluster.karmada.io; a CRD for the same group and
// resource shadows it, and deleting the CRD deletes every Cluster (the same etcd keys). The decision is a pure function
// of the APIServices; the lookup takes a kubeconfig path, a KubeConfig, or any client with `request(method, path)`.
// Loads @kubernetes/client-node only when given a path, so importing the webhook stays cheap.
import type { KubeConfig } from '@kubernetes/client-node';
import { GROUP, PLURAL } from '@karmada-cluster-probe/schema';

export const APISERVICES_PATH = '/apis/apiregistration.k8s.io/v1/apiservices';
/** The APIService through which Karmada serves its Cluster API. */
export const KARMADA_CLUSTER_APISERVICE = `v1alpha1.${GROUP}`;

/** The fields of an apiregistration.k8s.io/v1 APIService the decision reads. */
export interface APIServiceLike {
  metadata?: { name?: string };
  spec?: {
    group?: string;
    version?: string;
    /** Absent or null: served by this apiserver itself (a CRD or a built-in). Set: an aggregated apiserver. */
    service?: { namespace?: string; name?: string; port?: number } | null;
  };
}

/** Anything that can GET from the Kubernetes API (the reconciler's KubeApi, a test client). */
export interface ApiRequester {
  request<T>(method: string, path: string): Promise<T>;
}

export type GuardTarget = string | KubeConfig | ApiRequester;

/** The APIServices of group cluster.karmada.io that an aggregated apiserver serves (non-local spec.service). */
export function aggregatedClusterApiServices(items: readonly APIServiceLike[]): APIServiceLike[] {
  return items.filter((item) => {
    const group = item.spec?.group ?? groupOfName(item.metadata?.name);
    return group === GROUP && item.spec?.service != null;
  });
}

/** `v1alpha1.cluster.karmada.io` -> `cluster.karmada.io`: the name is `<version>.<group>` by API convention. */
function groupOfName(name: string | undefined): string | undefined {
  const dot = name?.indexOf('.') ?? -1;
  return name !== undefined && dot > 0 ? name.slice(dot + 1) : undefined;
}

/** `APIService v1alpha1.cluster.karmada.io is served by the aggregated apiserver behind Service ns/name:port`. */
export function describeApiService(item: APIServiceLike): string {
  const s = item.spec?.service;
  const where = s ? `${s.namespace ?? '?'}/${s.name ?? '?'}${s.port !== undefined ? `:${s.port}` : ''}` : 'local';
  return `APIService ${item.metadata?.name ?? '(unnamed)'} is served by the aggregated apiserver behind Service ${where}`;
}

/**
 * Why the CRD must not go onto the apiserver that lists these APIServices, or undefined when it may. Pure.
 * A local APIService for the group (the one the apiserver registers for a CRD) is fine: that is the CRD stand-in.
 */
export function karmadaControlPlaneRefusal(items: readonly APIServiceLike[], server?: string): string | undefined {
  const aggregated = aggregatedClusterApiServices(items);
  if (aggregated.length === 0) return undefined;
  return [
    `refusing to install the Cluster CRD (${PLURAL}.${GROUP}): ` +
      `${server ? `the apiserver at ${server}` : 'this apiserver'} is a Karmada control plane.`,
    ...aggregated.map((item) => `  ${describeApiService(item)}.`),
    `A CRD for the same group and resource would shadow Karmada's Cluster API, and deleting it would delete every ` +
      `member Cluster (and Karmada would then remove their workloads).`,
    `On Karmada install manifests/ (= manifests/karmada-apiserver/, no CRD) there and manifests/host/ in the host ` +
      `cluster; see docs/karmada.md. The CRD is only for an apiserver that serves Cluster from it.`,
  ].join('\n');
}

export class KarmadaControlPlaneError extends Error {
  constructor(
    message: string,
    /** The names of the aggregated APIServices found; empty when the APIServices could not be listed. */
    readonly apiServices: string[],
  ) {
    super(message);
    this.name = 'KarmadaControlPlaneError';
  }
}

/** The HTTP status of a client's error (client-node's `code`, our client's `status`), if it has one. */
export function statusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { status?: unknown; code?: unknown; statusCode?: unknown };
  for (const v of [e.status, e.code, e.statusCode]) if (typeof v === 'number') return v;
  return undefined;
}

async function listWithKubeConfig(kc: KubeConfig): Promise<APIServiceLike[]> {
  const { ApiregistrationV1Api } = await import('@kubernetes/client-node');
  const list = await kc.makeApiClient(ApiregistrationV1Api).listAPIService();
  return list.items as APIServiceLike[];
}

/**
 * Resolves when the target apiserver is not a Karmada control plane; throws KarmadaControlPlaneError when it is,
 * and also when its APIServices cannot be listed (fails closed: not knowing is no permission). An apiserver without
 * the aggregation API (404) has no aggregated apiserver, so it passes.
 */
export async function assertNotKarmadaControlPlane(target: GuardTarget): Promise<void> {
  let server: string | undefined;
  let items: APIServiceLike[];
  try {
    if (typeof target === 'string' || 'makeApiClient' in target) {
      let kc: KubeConfig;
      if (typeof target === 'string') {
        const { KubeConfig: KubeConfigClass } = await import('@kubernetes/client-node');
        kc = new KubeConfigClass();
        try {
          kc.loadFromFile(target);
        } catch (err) {
          throw new KarmadaControlPlaneError(
            `kubeconfig ${target}: ${(err as Error).message}; cannot check for a Karmada control plane, so the ` +
              'Cluster CRD is not installed',
            [],
          );
        }
      } else {
        kc = target;
      }
      server = kc.getCurrentCluster()?.server;
      items = await listWithKubeConfig(kc);
    } else {
      items = (await target.request<{ items?: APIServiceLike[] }>('GET', APISERVICES_PATH)).items ?? [];
    }
  } catch (err) {
    if (err instanceof KarmadaControlPlaneError) throw err;
    const status = statusOf(err);
    if (status === 404) return;
    throw new KarmadaControlPlaneError(
      `cannot list APIServices (${APISERVICES_PATH}) on ${server ?? 'the apiserver'}: ${(err as Error).message}. ` +
        'Whether it is a Karmada control plane is unknown, so the Cluster CRD is not installed' +
        (status === 401 || status === 403
          ? '; use credentials that may list apiservices.apiregistration.k8s.io.'
          : '; check that the apiserver is reachable.'),
      [],
    );
  }
  const refusal = karmadaControlPlaneRefusal(items, server);
  if (refusal !== undefined) {
    throw new KarmadaControlPlaneError(
      refusal,
      aggregatedClusterApiServices(items).map((i) => i.metadata?.name ?? ''),
    );
  }
}
