// The words for an invalid probe where the reconciler shows them (the Healthy condition, the Event) and `cluster-probe
// probe -f` prints them: every field error in the apiserver's wording, bounded in length, never a value that may be a
// secret (header values, caBundles, URLs) or a huge string someone pasted. Pure: no I/O.
import { clip } from '../api/index.js';
import { errorBody, type FieldError } from './field-error.js';

/** The whole message: a condition message stays far below the CRD's 32768, an Event's below its 1024. */
export const MAX_INVALID_MESSAGE = 1000;
const MAX_FIELD = 120;
const MAX_DETAIL = 200;
const MAX_SHOWN_STRING = 64;
/** Fields whose values are never shown, however short: they may carry credentials. */
const SECRET_FIELD = /httpHeaders\[\d+\]\.value|caBundle|url|token|password|secret/i;

function showsValue(e: FieldError): boolean {
  if (!('value' in e) || SECRET_FIELD.test(e.field)) return false;
  const v = e.value;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return true;
  return typeof v === 'string' && v.length <= MAX_SHOWN_STRING;
}

/** One error, `field: Type: value: detail`, with the value only when it is safe and short. */
export function describeFieldError(e: FieldError): string {
  const body = errorBody(
    { type: e.type, detail: clip(e.detail, MAX_DETAIL), ...(showsValue(e) ? { value: e.value } : {}) },
    showsValue(e),
  );
  return e.field === '' ? body : `${clip(e.field, MAX_FIELD)}: ${body}`;
}

/** Every error joined with `; `, as many as fit in MAX_INVALID_MESSAGE, then how many were left out. */
export function invalidProbeMessage(errors: readonly FieldError[]): string {
  if (errors.length === 0) return 'the probe is invalid';
  let out = '';
  for (let i = 0; i < errors.length; i++) {
    const part = describeFieldError(errors[i]!);
    const next = out === '' ? part : `${out}; ${part}`;
    const rest = errors.length - i - 1;
    // Room for the tail that says how many more there are, should a later one not fit.
    const tail = rest > 0 ? `; and ${errors.length} more errors`.length : 0;
    if (next.length + tail > MAX_INVALID_MESSAGE) {
      if (out === '') return clip(part, MAX_INVALID_MESSAGE);
      const left = errors.length - i;
      return `${out}; and ${left} more error${left === 1 ? '' : 's'}`;
    }
    out = next;
  }
  return out;
}
