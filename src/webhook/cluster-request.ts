// What mutate and validate share: recognising a Cluster request, naming it, shaping warnings and denials.
// Pure functions over the decoded review; nothing here touches HTTP or I/O.
import { clip, isRecord } from '@karmada-cluster-probe/schema/api';
import { errorBody, formatInvalid, GROUP, KIND, type FieldError } from '@karmada-cluster-probe/schema';
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

/**
 * The most field errors one denial carries, in its message and its causes; past it the message counts the rest. A
 * review of 3 MiB can hold 300,000 unknown fields, each an error written twice in the answer: unbounded, a 1 MB review
 * was answered with 22 MB, held in the server until the client read it.
 */
export const MAX_DENIAL_ERRORS = 100;
/** The most characters of one error's field path and of its text in a denial (a field name can be a 3 MB key). */
export const MAX_DENIAL_ERROR_LENGTH = 1024;

export function truncateWarning(warning: string): string {
  if (warning.length <= MAX_WARNING_LENGTH && !/\s\s|[\n\r\t]|^\s|\s$/.test(warning)) return warning;
  return clip(warning.replace(/\s+/g, ' ').trim(), MAX_WARNING_LENGTH);
}

/** Warnings truncated to the length limit, duplicates removed, order kept. */
export function shapeWarnings(warnings: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const w of warnings) seen.add(truncateWarning(w));
  return [...seen];
}

/** An error whose field path or text passes MAX_DENIAL_ERROR_LENGTH, clipped (the error itself when neither does). */
function clipError(e: FieldError): FieldError {
  if (e.message.length <= MAX_DENIAL_ERROR_LENGTH && e.field.length <= MAX_DENIAL_ERROR_LENGTH) return e;
  return { ...e, field: clip(e.field, MAX_DENIAL_ERROR_LENGTH), message: clip(e.message, MAX_DENIAL_ERROR_LENGTH) };
}

/**
 * A denial exactly as the apiserver phrases an invalid object: code 422, reason Invalid, one cause per error; past
 * MAX_DENIAL_ERRORS errors, the first ones and `, and N more errors` at the end of the message's list.
 */
export function invalidResponse(name: string, errors: FieldError[]): Omit<AdmissionResponse, 'uid'> {
  const more = errors.length - MAX_DENIAL_ERRORS;
  const shown = (more > 0 ? errors.slice(0, MAX_DENIAL_ERRORS) : errors).map(clipError);
  const message = formatInvalid(KIND, name, shown, Math.max(0, more));
  return {
    allowed: false,
    status: {
      code: 422,
      reason: 'Invalid',
      message,
      details: {
        name,
        group: GROUP,
        kind: KIND,
        causes: shown.map((e) => ({
          reason: e.type,
          message: clip(errorBody(e), MAX_DENIAL_ERROR_LENGTH),
          field: e.field,
        })),
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
