// What the webhook e2e tests share: Cluster manifests built from a name and a spec, the agreement table, kubectl's
// rendering of an Invalid status, and reading the apiserver's answer out of a @kubernetes/client-node error.
import { ApiException } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { stringify, parse } from 'yaml';

export type Obj = Record<string, unknown>;

export const API_VERSION = 'cluster.karmada.io/v1alpha1';

export function cluster(name: string, spec: Obj, metadata: Obj = {}): Obj {
  return { apiVersion: API_VERSION, kind: 'Cluster', metadata: { name, ...metadata }, spec };
}

export function clusterYaml(name: string, spec: Obj, metadata: Obj = {}): string {
  return stringify(cluster(name, spec, metadata));
}

/**
 * kubectl's text for a 422 Invalid status (k8s.io/kubectl cmdutil.StandardErrorMessage): one cause on the same line,
 * several as a list after a trailing space.
 */
export function kubectlInvalid(name: string, causes: string[], kind = 'Cluster'): string {
  if (causes.length === 1) return `The ${kind} "${name}" is invalid: ${causes[0]}\n`;
  return `The ${kind} "${name}" is invalid: \n${causes.map((c) => `* ${c}\n`).join('')}`;
}

/** The text a denial by our validating webhook prints: kubectl shows details.kind, which is the kind, `Cluster`. */
export function webhookInvalid(name: string, causes: string[]): string[] {
  return [kubectlInvalid(name, causes, 'Cluster')];
}

export interface KnownDisagreement {
  field?: string;
  library: string;
  note: string;
}

export interface AgreementCase {
  name: string;
  metadata?: Obj;
  spec: Obj;
  expect: 'accept' | 'reject';
  field?: string;
  message?: string;
  knownDisagreement?: KnownDisagreement;
  webhookOnly?: string;
}

export function agreementCases(path: string): AgreementCase[] {
  const doc = parse(readFileSync(path, 'utf8')) as { cases: AgreementCase[] };
  return doc.cases;
}

export function agreementCluster(row: AgreementCase): Obj {
  const { name = row.name, ...rest } = (row.metadata ?? {}) as { name?: string } & Obj;
  return cluster(name, row.spec, rest);
}

/** The apiserver's first error: `{field, message}` as kubectl prints a cause (`field: message`). */
export interface FirstError {
  status: number;
  field: string;
  message: string;
}

const NOT_CHECKED = 'some validation rules were not checked because the object was invalid';

/** Reads the first error out of a client-node ApiException; anything else is rethrown. */
export function firstApiError(err: unknown): FirstError {
  if (!(err instanceof ApiException)) throw err;
  const raw: unknown = err.body;
  const body = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
    message?: string;
    details?: { causes?: { field?: string; message?: string }[] };
  };
  const causes = (body.details?.causes ?? []).filter((c) => !(c.message ?? '').includes(NOT_CHECKED));
  const first = causes[0];
  if (first !== undefined) {
    const field = first.field ?? '';
    return { status: err.code, field, message: `${field}: ${first.message ?? ''}` };
  }
  // A strict-decoding refusal (400) carries no causes; its message names the field.
  const unknown = /unknown field "([^"]+)"/.exec(body.message ?? '');
  if (unknown?.[1] !== undefined) return { status: err.code, field: unknown[1], message: unknown[0] };
  return { status: err.code, field: '', message: body.message ?? '' };
}
