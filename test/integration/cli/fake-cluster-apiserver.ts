// Enough of an apiserver serving cluster.karmada.io Clusters, over plain HTTP on 127.0.0.1, for `migrate --in-cluster`
// run as a user runs it (a kubeconfig, a child process). Two flavours: `karmada` behaves as karmada-aggregated-apiserver
// (an aggregated APIService, an OpenAPI whose ClusterSpec has no livenessProbe, and spec.livenessProbe silently dropped
// from every write, answered 200); `crd` as kube-apiserver serving our CRD (a local APIService, the field kept).
// Knobs make it lie or refuse: discovery forbidden, an OpenAPI that claims the field, a value changed on write. The
// e2e suites run the real servers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import jsonpatch from 'fast-json-patch';
import { jsonPatchTestFailed } from '../../support/kube-status.js';

const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
export interface FakeCluster {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; resourceVersion?: string; uid?: string; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
}

export interface FakeOptions {
  flavour: 'karmada' | 'crd';
  /** 403 for the APIService list / the OpenAPI document. */
  forbidApiServices?: boolean;
  forbidOpenApi?: boolean;
  /** The OpenAPI claims spec.livenessProbe whatever the flavour stores (a server that lies, or a stale schema). */
  openApiClaimsField?: boolean;
  /** Drop spec.livenessProbe on writes (default: the karmada flavour does). */
  pruneField?: boolean;
  /** Called on the object about to be stored (dryRun says which); may change it. */
  onWrite?: (obj: FakeCluster, dryRun: boolean) => void;
  /** Called before a PATCH is applied: another writer may store the object here (a race with our GET). */
  beforePatch?: (name: string, dryRun: boolean) => void;
}

function karmadaOpenApi(withField: boolean): unknown {
  const prefix = 'com.github.karmada-io.karmada.pkg.apis.cluster.v1alpha1';
  return {
    openapi: '3.0.0',
    components: {
      schemas: {
        [`${prefix}.Cluster`]: {
          type: 'object',
          properties: {
            metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] },
            spec: { default: {}, allOf: [{ $ref: `#/components/schemas/${prefix}.ClusterSpec` }] },
          },
          'x-kubernetes-group-version-kind': [{ group: 'cluster.karmada.io', kind: 'Cluster', version: 'v1alpha1' }],
        },
        [`${prefix}.ClusterSpec`]: {
          type: 'object',
          properties: {
            apiEndpoint: { type: 'string' },
            syncMode: { type: 'string' },
            ...(withField ? { livenessProbe: { type: 'object' } } : {}),
          },
        },
        [`${prefix}.ClusterList`]: {
          'x-kubernetes-group-version-kind': [
            { group: 'cluster.karmada.io', kind: 'ClusterList', version: 'v1alpha1' },
          ],
        },
      },
    },
  };
}

function crdOpenApi(withField: boolean): unknown {
  return {
    openapi: '3.0.0',
    components: {
      schemas: {
        'io.karmada.cluster.v1alpha1.Cluster': {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: { syncMode: { type: 'string' }, ...(withField ? { livenessProbe: { type: 'object' } } : {}) },
            },
          },
          'x-kubernetes-group-version-kind': [{ group: 'cluster.karmada.io', kind: 'Cluster', version: 'v1alpha1' }],
        },
      },
    },
  };
}

export class FakeClusterApiserver {
  private rv = 1000;
  private readonly clusters = new Map<string, FakeCluster>();
  private server: Server | undefined;
  /** Every request, `METHOD path[?dryRun]`. */
  readonly requests: string[] = [];

  constructor(readonly options: FakeOptions) {}

  /** Writes that stored something (PATCHes without dryRun). */
  get writes(): number {
    return this.requests.filter((r) => r.startsWith('PATCH ') && !r.includes('dryRun')).length;
  }

  put(cluster: FakeCluster): FakeCluster {
    const c = structuredClone(cluster);
    c.apiVersion = 'cluster.karmada.io/v1alpha1';
    c.kind = 'Cluster';
    c.metadata.uid = `uid-${c.metadata.name}`;
    c.metadata.resourceVersion = String(++this.rv);
    if (this.prunes()) delete c.spec.livenessProbe;
    this.clusters.set(c.metadata.name, c);
    return structuredClone(c);
  }

  get(name: string): FakeCluster | undefined {
    const c = this.clusters.get(name);
    return c === undefined ? undefined : structuredClone(c);
  }

  private prunes(): boolean {
    return this.options.pruneField ?? this.options.flavour === 'karmada';
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A kubeconfig for this server (plain HTTP, a token nobody checks). */
  kubeconfig(url: string): string {
    return [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: fake, cluster: {server: "' + url + '", insecure-skip-tls-verify: true}}]',
      'users: [{name: fake, user: {token: fake}}]',
      'contexts: [{name: fake, context: {cluster: fake, user: fake}}]',
      'current-context: fake',
      '',
    ].join('\n');
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://x');
    const dryRun = url.searchParams.get('dryRun') === 'All';
    this.requests.push(`${req.method} ${url.pathname}${dryRun ? '?dryRun' : ''}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const status = (code: number, reason: string, message: string) =>
      send(code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });
    const path = url.pathname;
    if (path === '/apis/apiregistration.k8s.io/v1/apiservices') {
      if (this.options.forbidApiServices)
        return status(
          403,
          'Forbidden',
          'apiservices.apiregistration.k8s.io is forbidden: User "fake" cannot list resource "apiservices" in API group "apiregistration.k8s.io" at the cluster scope',
        );
      const service =
        this.options.flavour === 'karmada'
          ? { namespace: 'karmada-system', name: 'karmada-aggregated-apiserver', port: 443 }
          : null;
      return send(200, {
        items: [
          { metadata: { name: 'v1.apps' }, spec: { group: 'apps', version: 'v1', service: null } },
          {
            metadata: { name: 'v1alpha1.cluster.karmada.io' },
            spec: { group: 'cluster.karmada.io', version: 'v1alpha1', service },
          },
        ],
      });
    }
    if (path === '/openapi/v3/apis/cluster.karmada.io/v1alpha1') {
      if (this.options.forbidOpenApi)
        return status(
          403,
          'Forbidden',
          'forbidden: User "fake" cannot get path "/openapi/v3/apis/cluster.karmada.io/v1alpha1"',
        );
      const withField = this.options.openApiClaimsField ?? !this.prunes();
      return send(200, this.options.flavour === 'karmada' ? karmadaOpenApi(withField) : crdOpenApi(withField));
    }
    if (req.method === 'GET' && path === CLUSTERS) {
      return send(200, { items: [...this.clusters.values()], metadata: { resourceVersion: String(this.rv) } });
    }
    const one = path.startsWith(`${CLUSTERS}/`) ? decodeURIComponent(path.slice(CLUSTERS.length + 1)) : undefined;
    if (one === undefined) return status(404, 'NotFound', `the server could not find the requested resource`);
    const found = this.clusters.get(one);
    if (found === undefined) return status(404, 'NotFound', `clusters.cluster.karmada.io "${one}" not found`);
    if (req.method === 'GET') return send(200, found);
    if (req.method !== 'PATCH') return status(405, 'MethodNotAllowed', 'method not allowed');
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    this.options.beforePatch?.(one, dryRun);
    const current = this.clusters.get(one)!;
    let next: FakeCluster;
    const type = req.headers['content-type'] ?? '';
    if (type.startsWith('application/json-patch+json')) {
      try {
        next = jsonpatch.applyPatch(structuredClone(current), body as jsonpatch.Operation[], true, false).newDocument;
      } catch (err) {
        const name = (err as { name?: string }).name;
        if (name === 'TEST_OPERATION_FAILED')
          return send(422, jsonPatchTestFailed((err as { operation?: { path?: string } }).operation?.path ?? ''));
        return status(422, 'Invalid', `jsonpatch: ${(err as Error).message}`);
      }
    } else if (type.startsWith('application/merge-patch+json')) {
      const patch = body as { metadata?: { resourceVersion?: string } };
      if (
        patch.metadata?.resourceVersion !== undefined &&
        patch.metadata.resourceVersion !== current.metadata.resourceVersion
      )
        return status(
          409,
          'Conflict',
          `Operation cannot be fulfilled on clusters.cluster.karmada.io "${one}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      next = mergePatch(structuredClone(current), body) as FakeCluster;
    } else return status(415, 'UnsupportedMediaType', `the body of the request was in an unknown format: ${type}`);
    if (this.prunes()) delete next.spec.livenessProbe;
    if (next.metadata.annotations !== undefined && Object.keys(next.metadata.annotations).length === 0)
      delete next.metadata.annotations;
    this.options.onWrite?.(next, dryRun);
    if (!dryRun) {
      next.metadata.resourceVersion = String(++this.rv);
      this.clusters.set(one, next);
    }
    return send(200, next);
  }
}

/** RFC 7386. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
