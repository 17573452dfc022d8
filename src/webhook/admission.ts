// AdmissionReview types (admission.k8s.io v1 and v1beta1), the check of a parsed body's shape, and the answer's JSON.
// Pure: no sockets. The edge (edge.ts) turns a raw request into a review or a `ReviewRejection`; the HTTP shell maps
// a rejection to its status code and answers a review in kind.

import { isRecord } from '@karmada-cluster-probe/schema/api';
import { quoteJson } from './patch.js';

export const ADMISSION_V1 = 'admission.k8s.io/v1';
export const ADMISSION_V1BETA1 = 'admission.k8s.io/v1beta1';
export type AdmissionApiVersion = typeof ADMISSION_V1 | typeof ADMISSION_V1BETA1;

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface AdmissionRequest {
  uid: string;
  kind?: GroupVersionKind;
  resource?: GroupVersionResource;
  subResource?: string;
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  name?: string;
  namespace?: string;
  operation?: string;
  userInfo?: Record<string, unknown>;
  object?: unknown;
  oldObject?: unknown;
  dryRun?: boolean;
  options?: unknown;
}

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

export interface StatusDetails {
  name: string;
  group: string;
  kind: string;
  causes: StatusCause[];
}

/** metav1.Status as the apiserver shows it to kubectl. */
export interface Status {
  code: number;
  reason?: string;
  message: string;
  details?: StatusDetails;
  status?: 'Failure' | 'Success';
  metadata?: Record<string, never>;
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: Status;
  patch?: string;
  patchType?: 'JSONPatch';
  warnings?: string[];
}

export interface AdmissionReview {
  apiVersion: AdmissionApiVersion;
  kind: 'AdmissionReview';
  request?: AdmissionRequest;
  response?: AdmissionResponse;
}

/** A review whose request is known to be present (what the handlers receive). */
export interface AdmissionReviewRequest extends AdmissionReview {
  request: AdmissionRequest;
}

/** Why a body is not a review we can answer; `code` is the HTTP status to send. */
export interface ReviewRejection {
  code: 400 | 413 | 415 | 429;
  reason: 'BadRequest' | 'RequestEntityTooLarge' | 'UnsupportedMediaType' | 'TooManyRequests';
  message: string;
}

/** The most bytes of review we accept; the apiserver itself caps objects at 3 MiB. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/**
 * The most bytes of review bodies one server holds at once, over every request being received (21 full-size
 * reviews): past it a review is answered 429, so many connections that each send most of a body and stall cannot
 * grow the heap without end. The apiserver sends one review per write, so it never comes near.
 */
export const MAX_BUFFERED_BODY_BYTES = 64 * 1024 * 1024;

function isGvk(value: unknown): value is GroupVersionKind {
  return (
    isRecord(value) &&
    (value.group === undefined || typeof value.group === 'string') &&
    typeof value.version === 'string' &&
    typeof value.kind === 'string'
  );
}

function bad(message: string): ReviewRejection {
  return { code: 400, reason: 'BadRequest', message };
}

/**
 * Checks that a parsed body is an AdmissionReview with a request that carries a uid.
 * Returns the review, or a rejection naming what is wrong.
 */
export function decodeReview(body: unknown): AdmissionReviewRequest | ReviewRejection {
  if (!isRecord(body)) return bad('body must be a JSON object holding an AdmissionReview');
  if (body.kind !== 'AdmissionReview') {
    return bad(`kind must be "AdmissionReview", got ${JSON.stringify(body.kind ?? null)}`);
  }
  if (body.apiVersion !== ADMISSION_V1 && body.apiVersion !== ADMISSION_V1BETA1) {
    return bad(
      `apiVersion must be "${ADMISSION_V1}" or "${ADMISSION_V1BETA1}", got ${JSON.stringify(body.apiVersion ?? null)}`,
    );
  }
  const request = body.request;
  if (!isRecord(request)) return bad('AdmissionReview has no request');
  if (typeof request.uid !== 'string' || request.uid === '') {
    return bad('AdmissionReview request.uid is required');
  }
  if (request.kind !== undefined && !isGvk(request.kind)) {
    return bad('AdmissionReview request.kind must be {group, version, kind}');
  }
  if (request.operation !== undefined && typeof request.operation !== 'string') {
    return bad('AdmissionReview request.operation must be a string');
  }
  if (request.name !== undefined && typeof request.name !== 'string') {
    return bad('AdmissionReview request.name must be a string');
  }
  return {
    apiVersion: body.apiVersion,
    kind: 'AdmissionReview',
    request: request as unknown as AdmissionRequest,
  };
}

export function isRejection(value: AdmissionReviewRequest | ReviewRejection): value is ReviewRejection {
  return 'code' in value;
}

/** The answer to a review, in the review's own apiVersion, echoing its uid. */
export function answer(review: AdmissionReviewRequest, response: Omit<AdmissionResponse, 'uid'>): AdmissionReview {
  return {
    apiVersion: review.apiVersion,
    kind: 'AdmissionReview',
    response: { uid: review.request.uid, ...response },
  };
}

/**
 * The JSON text of an answer made by `answer`, byte for byte what JSON.stringify writes, for less: the response's
 * `patch` is base64 (encodePatch makes it, and nothing else sets it), which needs no escaping, and is copied as it is
 * instead of being scanned; every other value goes through JSON.stringify (the uid, which the client chose, included).
 * A review that carries anything else, or an answer without a response, is written by JSON.stringify whole.
 * test/unit/webhook/serialize.test.ts holds the two equal on every fixture's answer and on generated ones.
 */
export function answerJson(review: AdmissionReview): string {
  const response = review.response as Record<string, unknown> | undefined;
  const keys = Object.keys(review);
  if (
    response === undefined ||
    keys.length !== 3 ||
    keys[0] !== 'apiVersion' ||
    keys[1] !== 'kind' ||
    keys[2] !== 'response'
  ) {
    return JSON.stringify(review);
  }
  let out = `{"apiVersion":${quoteJson(review.apiVersion)},"kind":${quoteJson(review.kind)},"response":{`;
  let first = true;
  for (const key of Object.keys(response)) {
    const value = response[key];
    if (value === undefined) continue;
    const text = key === 'patch' && typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
    out += `${first ? '' : ','}${quoteJson(key)}:${text}`;
    first = false;
  }
  return `${out}}}`;
}

/** metav1.Status as a standalone HTTP body (for a request that is not a review we can answer). */
export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  code: number;
}

/** metav1.Status for a body that is not a review we can answer (sent with the matching HTTP status). */
export function rejectionStatus(rejection: ReviewRejection): StatusBody {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: rejection.message,
    reason: rejection.reason,
    code: rejection.code,
  };
}
