// Field paths and field errors in the shape and wording of Kubernetes' apimachinery `field` package.
// Every validator returns a list of these; ajv errors are translated into them once, at the edge.
// Pure: no I/O, nothing from the webhook, the probe engine or a Kubernetes client.

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid';

/** One problem with one field, as the apiserver reports it (`StatusCause` carries `type`, `field` and the body). */
export interface FieldError {
  /** Path in the apiserver's notation: `spec.taints[0].key`, `metadata.annotations[cluster.karmada.io/health-checker]`. */
  field: string;
  type: FieldErrorType;
  /** The offending value, when the error shows one. Absent for Required, Forbidden, Too long and omitted values. */
  value?: unknown;
  detail: string;
  /** `field: body`, exactly as the apiserver prints it. */
  message: string;
}

const TYPE_WORDS: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
};

/**
 * A path into an object, built child by child like apimachinery's `field.NewPath("spec").Child("x")`. Paths are
 * interned (a node keeps its children) and their text is built only when asked for, so walking a valid object
 * allocates nothing after the first time.
 */
export class FieldPath {
  private static readonly roots = new Map<string, FieldPath>();
  private static readonly MAX_CHILDREN = 64;
  /**
   * Longest name kept in the interned tree. Names can come from a request (an unknown key is reported under its own
   * name), and the tree outlives every request: a bound on entries alone let 60 keys of 2 MB keep 114 MiB.
   */
  static readonly MAX_INTERNED_NAME = 64;
  private text: string | undefined;
  private children: Map<string, FieldPath> | undefined;
  private indices: FieldPath[] | undefined;

  private constructor(
    private readonly parent: FieldPath | undefined,
    private readonly segment: string,
    private readonly kind: 'root' | 'child' | 'bracket',
  ) {}

  static root(name: string): FieldPath {
    let p = FieldPath.roots.get(name);
    if (p === undefined) {
      p = new FieldPath(undefined, name, 'root');
      if (FieldPath.roots.size < FieldPath.MAX_CHILDREN && name.length <= FieldPath.MAX_INTERNED_NAME)
        FieldPath.roots.set(name, p);
    }
    return p;
  }

  child(...names: string[]): FieldPath {
    let p: FieldPath | undefined;
    for (const name of names) p = (p ?? this).childOf(name);
    return p ?? this;
  }

  private childOf(name: string): FieldPath {
    let c = this.children?.get(name);
    if (c === undefined) {
      c = new FieldPath(this, name, 'child');
      this.children ??= new Map();
      if (this.children.size < FieldPath.MAX_CHILDREN && name.length <= FieldPath.MAX_INTERNED_NAME)
        this.children.set(name, c);
    }
    return c;
  }

  index(i: number): FieldPath {
    let c = this.indices?.[i];
    if (c === undefined) {
      c = new FieldPath(this, String(i), 'bracket');
      this.indices ??= [];
      if (i < FieldPath.MAX_CHILDREN) this.indices[i] = c;
    }
    return c;
  }

  /**
   * A child that is not interned, for a name that comes from the request and is reported rather than walked (an
   * unknown field): interning those kept every one seen, multiplied by the array indices above it.
   */
  leaf(name: string): FieldPath {
    return new FieldPath(this, name, 'child');
  }

  /** A map key (`metadata.annotations[name]`); not interned, since keys come from user data. */
  key(k: string): FieldPath {
    return new FieldPath(this, k, 'bracket');
  }

  toString(): string {
    if (this.text !== undefined) return this.text;
    const up = this.parent === undefined ? '' : this.parent.toString();
    if (this.kind === 'bracket') this.text = `${up}[${this.segment}]`;
    else if (this.kind === 'child' && up !== '') this.text = `${up}.${this.segment}`;
    else this.text = this.segment;
    return this.text;
  }
}

const OMITTED = Symbol('omitted');

/** Go's `%q` for the strings we print: JSON quoting is the same for everything but rare control characters. */
function quote(s: string): string {
  return JSON.stringify(s);
}

function renderValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** The part of the message after `field: `, e.g. `Invalid value: 70000: must be between 1 and 65535, inclusive`. */
export function errorBody(
  e: Pick<FieldError, 'type' | 'detail'> & { value?: unknown },
  hasValue = 'value' in e,
): string {
  let s = TYPE_WORDS[e.type];
  const showsValue =
    hasValue && e.type !== 'FieldValueRequired' && e.type !== 'FieldValueForbidden' && e.type !== 'FieldValueTooLong';
  if (showsValue) s += `: ${renderValue(e.value)}`;
  if (e.detail.length > 0) s += `: ${e.detail}`;
  return s;
}

function make(type: FieldErrorType, path: FieldPath | string, value: unknown, detail: string): FieldError {
  const field = String(path);
  const e: FieldError =
    value === OMITTED ? { field, type, detail, message: '' } : { field, type, value, detail, message: '' };
  e.message = field === '' ? errorBody(e) : `${field}: ${errorBody(e)}`;
  return e;
}

export const fieldErrors = {
  required: (path: FieldPath | string, detail = ''): FieldError => make('FieldValueRequired', path, OMITTED, detail),
  invalid: (path: FieldPath | string, value: unknown, detail: string): FieldError =>
    make('FieldValueInvalid', path, value, detail),
  /** An Invalid value whose value is not shown (secrets, certificates, long blobs). */
  invalidOmitted: (path: FieldPath | string, detail: string): FieldError =>
    make('FieldValueInvalid', path, OMITTED, detail),
  notSupported: (path: FieldPath | string, value: unknown, supported: readonly string[]): FieldError =>
    make(
      'FieldValueNotSupported',
      path,
      value,
      supported.length > 0 ? `supported values: ${supported.map((v) => quote(v)).join(', ')}` : '',
    ),
  forbidden: (path: FieldPath | string, detail: string): FieldError =>
    make('FieldValueForbidden', path, OMITTED, detail),
  duplicate: (path: FieldPath | string, value: unknown, detail = ''): FieldError =>
    make('FieldValueDuplicate', path, value, detail),
  tooLong: (path: FieldPath | string, maxBytes: number): FieldError =>
    make('FieldValueTooLong', path, OMITTED, `may not be more than ${maxBytes} bytes`),
  tooMany: (path: FieldPath | string, actual: number, max: number): FieldError =>
    make('FieldValueTooMany', path, actual, `must have at most ${max} items`),
  typeInvalid: (path: FieldPath | string, value: unknown, detail: string): FieldError =>
    make('FieldValueTypeInvalid', path, value, detail),
};

const DIGITS = /(\d+)/;

/**
 * Two different runs of digits by the number they write, exactly at any length (a run of 400 digits is past any
 * float: comparing Numbers made Infinity equal to Infinity and the order not transitive); equal numbers with
 * different leading zeros by length, then by code unit, so that the order stays total.
 */
function compareDigitRuns(x: string, y: string): number {
  let i = 0;
  let j = 0;
  while (i < x.length - 1 && x.charCodeAt(i) === 0x30) i++;
  while (j < y.length - 1 && y.charCodeAt(j) === 0x30) j++;
  const lx = x.length - i;
  const ly = y.length - j;
  if (lx !== ly) return lx < ly ? -1 : 1;
  for (let k = 0; k < lx; k++) {
    const d = x.charCodeAt(i + k) - y.charCodeAt(j + k);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : 1;
}

/**
 * Orders two field paths as a person reads them: segment by segment, an index by its number (`spec.taints[2]` before
 * `spec.taints[10]`), the rest by code unit (Go's string order). A prefix first: `spec.livenessProbe` before
 * `spec.livenessProbe.httpGet.port`.
 */
export function compareFieldPaths(a: string, b: string): number {
  if (a === b) return 0;
  const pa = a.split(DIGITS);
  const pb = b.split(DIGITS);
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = pa[i] as string;
    const y = pb[i] as string;
    if (x === y) continue;
    if (i % 2 === 1) return compareDigitRuns(x, y);
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

/**
 * Sorts errors by field path (stable: errors at one path keep the order they were found in), so that the same object
 * always gives the same list. kube-apiserver gives no order to rely on: a CRD's schema errors come in Go's map order
 * of the schema's properties (k8s.io/kube-openapi validate/object_validator.go), different from one request to the
 * next, and built-in validation in the order its code runs.
 */
export function sortFieldErrors(errors: FieldError[]): FieldError[] {
  if (errors.length < 2) return errors;
  return errors.sort((x, y) => compareFieldPaths(x.field, y.field));
}

/** Appends `more` to `errors` without a spread (validation's hot path mostly appends empty lists). */
export function append<T>(errors: T[], more: readonly T[]): void {
  for (let i = 0; i < more.length; i++) errors.push(more[i] as T);
}

/**
 * The apiserver's Invalid status message: `Cluster "name" is invalid: <e>` or `... is invalid: [<e1>, <e2>]`; with
 * `more` errors left out of `errors`, `[<e1>, ..., and N more errors]`.
 */
export function formatInvalid(kind: string, name: string, errors: readonly FieldError[], more = 0): string {
  const list = errors.map((e) => e.message);
  if (more > 0) list.push(`and ${more} more errors`);
  const body = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  return `${kind} ${quote(name)} is invalid: ${body}`;
}
