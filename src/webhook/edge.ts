// The one edge of an admission request: media type, encoding, size, then the body decoded into a review. Pure and
// synchronous: the server (admission-route.ts, through handle.ts) and every test (the fuzz properties included) call
// these same functions, so what the tests prove is what is served. Imports no socket.
import { messageOf } from '@karmada-cluster-probe/schema/api';
import { MAX_BODY_BYTES, decodeReview, type AdmissionReviewRequest, type ReviewRejection } from './admission.js';

/** The request headers the edge reads; node's `req.headers` is one. */
export interface ReviewHead {
  'content-type'?: string | undefined;
  'content-encoding'?: string | undefined;
  'content-length'?: string | undefined;
}

/** A request's head, or its Content-Type alone (what the tests and handleReview's older callers pass). */
export type ReviewHeadLike = ReviewHead | string | undefined;

/** True for `application/json`, with or without parameters such as `charset=utf-8`. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === 'application/json') return true; // what the apiserver sends, without an allocation
  if (!contentType) return false;
  const media = contentType.split(';', 1)[0]?.trim().toLowerCase();
  return media === 'application/json';
}

/** Refused when the size is not known (a streamed body passing the limit); built once, not per request. */
export const TOO_LARGE: ReviewRejection = Object.freeze({
  code: 413,
  reason: 'RequestEntityTooLarge',
  message: `body is over the limit of ${MAX_BODY_BYTES} bytes`,
});

function tooLarge(length: number): ReviewRejection {
  return {
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: `body of ${length} bytes is over the limit of ${MAX_BODY_BYTES} bytes`,
  };
}

/**
 * What the head alone refuses, before a byte of the body is read: a media type other than JSON (415), a
 * Content-Encoding (415), a declared Content-Length over MAX_BODY_BYTES (413). Undefined when the head is fine.
 */
export function checkHead(head: ReviewHeadLike): ReviewRejection | undefined {
  const contentType = typeof head === 'object' ? head['content-type'] : head;
  if (!isJsonContentType(contentType)) {
    return {
      code: 415,
      reason: 'UnsupportedMediaType',
      message: `Content-Type must be application/json, got ${JSON.stringify(contentType ?? '')}`,
    };
  }
  if (typeof head !== 'object') return undefined;
  const encoding = head['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    return { code: 415, reason: 'UnsupportedMediaType', message: `Content-Encoding ${encoding} is not supported` };
  }
  const declared = head['content-length'];
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) return tooLarge(Number(declared));
  return undefined;
}

/** The body's size against MAX_BODY_BYTES, then JSON, then the review's shape; never throws. */
export function decodeBody(body: Buffer | string): AdmissionReviewRequest | ReviewRejection {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (length > MAX_BODY_BYTES) return tooLarge(length);
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch (err) {
    return { code: 400, reason: 'BadRequest', message: `body is not JSON: ${messageOf(err)}` };
  }
  return decodeReview(parsed);
}

/** The edge whole: the head's checks, then the body's. The one function between a request and the handlers. */
export function parseReview(head: ReviewHeadLike, body: Buffer | string): AdmissionReviewRequest | ReviewRejection {
  return checkHead(head) ?? decodeBody(body);
}
