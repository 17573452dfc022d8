// Type-level tests of the schema library's types, checked by `npm run typecheck` (tsc), never run: each
// `@ts-expect-error` line must fail to compile, each other line must compile. The rules the types carry: exactly one
// handler, literal apiVersion and kind, validation and isCluster that narrow, migrateCluster typed by its input.
import {
  isCluster,
  migrateCluster,
  validateCluster,
  validateProbe,
  type Cluster,
  type LivenessProbe,
} from '../../../packages/schema/src/schema/index.js';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const holds = <T extends true>(): T | undefined => undefined;

// LivenessProbe: one handler, any one of the four, with or without timing.
export const http: LivenessProbe = { httpGet: { port: 8080, path: '/healthz' }, periodSeconds: 10 };
export const tcp: LivenessProbe = { tcpSocket: { port: 'https' } };
export const grpc: LivenessProbe = { grpc: { port: 9000 }, timeoutSeconds: 2 };
export const api: LivenessProbe = { apiServer: { minReadyNodes: 1 } };
// @ts-expect-error two handlers at once
export const two: LivenessProbe = { httpGet: { port: 80 }, tcpSocket: { port: 80 } };
// @ts-expect-error no handler
export const none: LivenessProbe = { periodSeconds: 10 };
// @ts-expect-error gRPC takes a port number, not a name
export const grpcName: LivenessProbe = { grpc: { port: 'grpc' } };
// @ts-expect-error a handler the schema does not have
export const exec: LivenessProbe = { exec: { command: ['true'] } };
export function readHandler(p: LivenessProbe): number | string | undefined {
  // Every handler reads as possibly absent on the union; one tested present is the action's type.
  if (p.httpGet !== undefined) return p.httpGet.port;
  return p.tcpSocket?.port;
}

// Cluster: apiVersion and kind are the literals.
export const cluster: Cluster = {
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'member' },
  spec: { syncMode: 'Pull', apiEndpoint: 'https://10.0.0.1:6443', livenessProbe: http },
};
// @ts-expect-error a wrong kind
export const pod: Cluster = { kind: 'Pod', spec: { syncMode: 'Pull' } };
// @ts-expect-error a wrong apiVersion
export const v1: Cluster = { apiVersion: 'v1', spec: { syncMode: 'Pull' } };
export const twoInCluster: Cluster = {
  // @ts-expect-error two handlers in a Cluster's probe
  spec: { syncMode: 'Push', livenessProbe: { grpc: { port: 1 }, apiServer: {} } },
};
holds<Equal<Cluster['kind'], 'Cluster' | undefined>>();
holds<Equal<Cluster['apiVersion'], 'cluster.karmada.io/v1alpha1' | undefined>>();

// isCluster and validateCluster narrow what they were given.
export function guarded(x: unknown): Cluster['spec']['syncMode'] | undefined {
  // @ts-expect-error x is unknown until checked
  void x.spec;
  if (isCluster(x)) return x.spec.syncMode;
  return undefined;
}
export function validated(x: unknown): string | undefined {
  const result = validateCluster(x);
  // @ts-expect-error not narrowed before `valid` is tested
  void result.object.spec;
  if (!result.valid) return result.errors[0]?.message;
  holds<Equal<typeof result.object, Cluster>>();
  return result.object.spec.syncMode;
}
export function validatedKeepsInput(x: { metadata: { name: string }; extra: number }): number | undefined {
  const result = validateCluster(x);
  if (result.valid) {
    holds<Equal<typeof result.object.metadata.name, string>>();
    return result.object.extra + (result.object.spec.livenessProbe?.timeoutSeconds ?? 0);
  }
  return undefined;
}
export function probeValidated(x: unknown): LivenessProbe | undefined {
  const result = validateProbe(x);
  return result.valid ? result.object : undefined;
}

// migrateCluster returns its input's type with the probe where the location keeps it, not unknown.
export function migrated(c: Cluster, raw: unknown, annotated: { metadata: { name: string } }): void {
  const _field = migrateCluster(c, { probeLocation: 'field' }).object;
  holds<Equal<typeof _field.spec.livenessProbe, LivenessProbe | undefined>>();
  holds<Equal<(typeof _field)['kind'], 'Cluster' | undefined>>();
  const _unknownIn = migrateCluster(raw, { probeLocation: 'field' }).object;
  holds<Equal<typeof _unknownIn, unknown>>();
  const _fromView = migrateCluster(annotated, { probeLocation: 'field' }).object;
  holds<Equal<typeof _fromView.metadata.name, string>>();
  holds<Equal<NonNullable<typeof _fromView.spec>['livenessProbe'], LivenessProbe | undefined>>();
  const _toAnnotation = migrateCluster(annotated, { probeLocation: 'annotation' }).object;
  holds<Equal<NonNullable<(typeof _toAnnotation)['metadata']['annotations']>[string], string>>();
}
