// Kubernetes' name, label, port and header rules, with its exact messages: apimachinery v0.35's util/validation
// (DNS labels and subdomains, ports, header names: lengths in "characters") and api/validate/content (label keys
// and values: lengths in "bytes"). Lengths are Go's len(), UTF-8 bytes. test/oracle checks the words against that code;
// test/unit/schema/kubernetes-messages.test.ts holds each message beside the upstream function it comes from.
// Each check returns the list of problems as strings; callers attach them to a field path.
// Pure: no I/O.
import { ipFamily } from '../address/index.js';
import { memoize } from './memo.js';

// apimachinery's formats, unanchored; also the patterns of the standalone JSON Schemas (scripts/generate/json-schemas.ts).
export const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
export const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
export const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
export const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
export const HTTP_HEADER_NAME_FMT = '[-A-Za-z0-9]+';

const dns1123Label = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const dns1123Subdomain = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const qualifiedName = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const labelValue = new RegExp(`^${LABEL_VALUE_FMT}$`);
const httpHeaderName = new RegExp(`^${HTTP_HEADER_NAME_FMT}$`);

/** apimachinery's RegexError, including its famous double space between examples. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) s += ' or ';
    s += `'${ex}', `;
  });
  return `${s}regex used for validation is '${fmt}')`;
}

export const maxLenError = (n: number): string => `must be no more than ${n} characters`;
/** The same limit as api/validate/content words it (label keys and values). */
const maxBytesError = (n: number): string => `must be no more than ${n} bytes`;

/**
 * The length of `value` in UTF-8 bytes, as Go's len() counts the string the apiserver decoded: a lone surrogate
 * counts 3 (it becomes U+FFFD, as TextEncoder and Buffer.byteLength have it). A scan, nothing allocated.
 */
export function utf8Length(value: string): number {
  let n = value.length;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2; // a pair: 4 bytes for 2 code units
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}

/** Go's len(value) > limit: UTF-8 bytes, counted only when the UTF-16 length cannot decide. */
export function longerThan(value: string, limit: number): boolean {
  if (value.length > limit) return true;
  return value.length * 3 > limit && utf8Length(value) > limit;
}
export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

function isDNS1123LabelUncached(value: string): string[] {
  const errs: string[] = [];
  if (longerThan(value, 63)) errs.push(maxLenError(63));
  if (!dns1123Label.test(value)) {
    if (dns1123Subdomain.test(value)) errs.push('must not contain dots');
    else
      errs.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          DNS1123_LABEL_FMT,
          'my-name',
          '123-abc',
        ),
      );
  }
  return errs;
}

function dns1123SubdomainErrors(value: string, tooLong: (n: number) => string): string[] {
  const errs: string[] = [];
  if (longerThan(value, 253)) errs.push(tooLong(253));
  if (!dns1123Subdomain.test(value))
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN_FMT,
        'example.com',
      ),
    );
  return errs;
}

const isDNS1123SubdomainUncached = (value: string): string[] => dns1123SubdomainErrors(value, maxLenError);

const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

function isQualifiedNameUncached(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...dns1123SubdomainErrors(prefix, maxBytesError).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a valid label key ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (longerThan(name, 63)) errs.push(`name part ${maxBytesError(63)}`);
  if (!qualifiedName.test(name))
    errs.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

function isValidLabelValueUncached(value: string): string[] {
  const errs: string[] = [];
  if (longerThan(value, 63)) errs.push(maxBytesError(63));
  if (!labelValue.test(value))
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FMT,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  return errs;
}

const NO_PROBLEMS: readonly string[] = Object.freeze([]);

/** apimachinery's IsValidPortNum; a valid port allocates nothing (the list returned is shared: read it only). */
export function isValidPortNum(port: number): readonly string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? NO_PROBLEMS : [inclusiveRangeError(1, 65535)];
}

/** An IANA service name as Kubernetes accepts it for a named port. */
function isValidPortNameUncached(port: string): string[] {
  const errs: string[] = [];
  if (longerThan(port, 15)) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

function isHTTPHeaderNameUncached(value: string): string[] {
  return httpHeaderName.test(value)
    ? []
    : [
        regexError(
          "a valid HTTP header must consist of alphanumeric characters or '-'",
          HTTP_HEADER_NAME_FMT,
          'X-Header-Name',
        ),
      ];
}

/** A probe host: an IP address, or a DNS-1123 subdomain (the kubelet dials whatever it is given; we are stricter). */
function isValidHostUncached(value: string): string[] {
  if (ipFamily(value) !== 0) return [];
  return isDNS1123Subdomain(value).map((m) => `must be a valid IP address or DNS name: ${m}`);
}

export const isDNS1123Label = memoize(isDNS1123LabelUncached);
export const isDNS1123Subdomain = memoize(isDNS1123SubdomainUncached);
export const isQualifiedName = memoize(isQualifiedNameUncached);
export const isValidLabelValue = memoize(isValidLabelValueUncached);
export const isValidPortName = memoize(isValidPortNameUncached);
export const isHTTPHeaderName = memoize(isHTTPHeaderNameUncached);
export const isValidHost = memoize(isValidHostUncached);
