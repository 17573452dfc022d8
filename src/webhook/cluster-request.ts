// What mutate and validate share: recognising a Cluster request, naming it, shaping warnings and denials.
// Pure functions over the decoded review; nothing here touches HTTP or I/O.
import { isRecord } from '../api/index.js';
import { errorBody, formatInvalid, GROUP, KIND, type FieldError } from '../schema/index.js';
import {
  answer,
  type AdmissionRequest,
  type AdmissionResponse,
  type AdmissionReview,
  type AdmissionReviewRequest,
} from './admission.js';

/** The apiserver's limit is 256 bytes a warning; ours is tighter so kubectl prints each on one line. */
export const MAX_WARNING_LENGTH = 120;

/** The group/kind a request is about: `request.kind` first, the object's own apiVersion/kind as a fallback. */
export function requestGroupKind(request: AdmissionRequest): { group: string; kind: string } {
  if (request.kind) return { group: request.kind.group ?? '', kind: request.kind.kind };
  const object = isRecord(request.object) ? request.object : isRecord(request.oldObject) ? request.oldObject : {};
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  const group = apiVersion.includes('/') ? (apiVersion.split('/', 1)[0] ?? '') : '';
  return { group, kind: typeof object.kind === 'string' ? object.kind : '' };
}

export function isClusterRequest(request: AdmissionRequest): boolean {
  const { group, kind } = requestGroupKind(request);
  return group === GROUP && kind === KIND;
}

/** The warning for a request about something else than a Cluster (a webhook configuration that matches too much). */
export function notAClusterWarning(request: AdmissionRequest): string {
  const { group, kind } = requestGroupKind(request);
  const what = `${group === '' ? 'core' : group}/${kind === '' ? '(no kind)' : kind}`;
  return truncateWarning(`cluster-probe webhook: ${what} is not a ${GROUP} Cluster; admitted unchanged`);
}

/** The object's name: `request.name`, else `metadata.name`, else `generateName` (CREATE before naming). */
export function requestName(request: AdmissionRequest): string {
  if (request.name) return request.name;
  const object = isRecord(request.object) ? request.object : isRecord(request.oldObject) ? request.oldObject : {};
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  if (typeof metadata.name === 'string' && metadata.name !== '') return metadata.name;
  if (typeof metadata.generateName === 'string') return metadata.generateName;
  return '';
}

export function truncateWarning(warning: string): string {
  if (warning.length <= MAX_WARNING_LENGTH && !/\s\s|[\n\r\t]|^\s|\s$/.test(warning)) return warning;
  const oneLine = warning.replace(/\s+/g, ' ').trim();
  return oneLine.length <= MAX_WARNING_LENGTH ? oneLine : `${oneLine.slice(0, MAX_WARNING_LENGTH - 3)}...`;
}

/** Warnings truncated to the length limit, duplicates removed, order kept. */
export function shapeWarnings(warnings: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const w of warnings) seen.add(truncateWarning(w));
  return [...seen];
}

/** A denial exactly as the apiserver phrases an invalid object: code 422, reason Invalid, one cause per error. */
export function invalidResponse(name: string, errors: FieldError[]): Omit<AdmissionResponse, 'uid'> {
  return {
    allowed: false,
    status: {
      code: 422,
      reason: 'Invalid',
      message: formatInvalid(KIND, name, errors),
      details: {
        name,
        group: GROUP,
        kind: KIND,
        causes: errors.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field })),
      },
    },
  };
}

/** A denial for a request that cannot be a Cluster write at all (no object to look at). */
export function badRequestResponse(message: string): Omit<AdmissionResponse, 'uid'> {
  return { allowed: false, status: { code: 400, reason: 'BadRequest', message } };
}

/** Operations that carry no object to admit or change. */
const PASS_THROUGH = new Set(['DELETE', 'CONNECT']);

/**
 * What both handlers do first: DELETE and CONNECT pass, a kind other than Cluster passes with a warning, a Cluster
 * review without an object is a bad request. Returns the answer to send, or the Cluster object to work on.
 */
export function clusterObjectOf(
  review: AdmissionReviewRequest,
): { answer: AdmissionReview } | { object: Record<string, unknown> } {
  const request = review.request;
  if (PASS_THROUGH.has(request.operation ?? '')) return { answer: answer(review, { allowed: true }) };
  if (!isClusterRequest(request))
    return { answer: answer(review, { allowed: true, warnings: [notAClusterWarning(request)] }) };
  const object = request.object;
  if (!isRecord(object))
    return {
      answer: answer(
        review,
        badRequestResponse(`${request.operation ?? 'request'} of a Cluster without request.object`),
      ),
    };
  return { object };
}
