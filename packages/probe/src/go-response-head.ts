// Go's http.ReadResponse on a response head, for its error text only: when Node's parser refuses a head, or the
// server closes in the middle of one, the probe's message says what the kubelet's Go client says
// (`malformed HTTP status code "abc"`, `malformed MIME header: missing colon: "Content-Le"`, `unexpected EOF`).
// Node's parser still decides what is read; this only words its refusals. Written from Go's net/http and
// net/textproto behaviour; copies no code. Depends on nothing.
import { goQuote } from './go-url.js';

const NEED_MORE = Symbol('need more');
const EOF = Symbol('EOF');

class Lines {
  private pos = 0;
  constructor(
    private readonly data: string,
    private readonly closed: boolean,
  ) {}

  /** bufio.Reader.ReadLine as textproto uses it: a partial last line is a line once the connection has closed. */
  next(): string | typeof NEED_MORE | typeof EOF {
    const nl = this.data.indexOf('\n', this.pos);
    if (nl < 0) {
      if (!this.closed) return NEED_MORE;
      if (this.pos >= this.data.length) return EOF;
      const rest = this.data.slice(this.pos);
      this.pos = this.data.length;
      return rest;
    }
    const line = this.data.slice(this.pos, nl);
    this.pos = nl + 1;
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }

  peek(): string | undefined {
    return this.data[this.pos];
  }

  get offset(): number {
    return this.pos;
  }
}

const FIELD_BYTE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;

function validKey(k: string): boolean {
  if (k === '') return false;
  for (const c of k) if (!FIELD_BYTE.test(c) && c !== ' ') return false;
  return true;
}

function validValue(v: string): boolean {
  for (const c of v) {
    const b = c.charCodeAt(0);
    if ((b < 0x20 && b !== 0x09) || b === 0x7f) return false;
  }
  return true;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t';

/** Spaces and tabs at the start (a loop: no regex backtracking on long runs). */
function leadingSpace(s: string): number {
  let i = 0;
  while (isSpace(s[i])) i++;
  return i;
}

function trimEnd(s: string): string {
  let end = s.length;
  while (end > 0 && isSpace(s[end - 1])) end--;
  return s.slice(0, end);
}

function goHttpVersionOk(v: string): boolean {
  if (v === 'HTTP/1.1' || v === 'HTTP/1.0') return true;
  return /^HTTP\/[0-9]\.[0-9]$/.test(v);
}

/** Go's strconv.Atoi on a three-byte status code: an optional sign, then digits. */
function goAtoi3(s: string): number | undefined {
  return /^[+-]?[0-9]+$/.test(s) ? Number(s) : undefined;
}

/**
 * The error Go's ReadResponse (and its transfer checks) returns for `data` (the bytes received, latin1), or undefined
 * when Go reads it without error as far as it goes. `closed`: the server closed, no more bytes will come.
 */
export function goResponseHeadError(data: string, closed: boolean): string | undefined {
  const head = goReadResponseHead(data, closed);
  return 'error' in head ? head.error : undefined;
}

/** A head as Go's ReadResponse reads it: its error, or its status and fields (names in lower case) and where it ends. */
export type GoHead =
  | { error: string }
  | { needMore: true }
  | { status: number; fields: ReadonlyMap<string, readonly string[]>; end: number };

export function goReadResponseHead(data: string, closed: boolean): GoHead {
  const fail = (error: string): GoHead => ({ error });
  const more: GoHead = { needMore: true };
  const lines = new Lines(data, closed);
  const status = lines.next();
  if (status === NEED_MORE) return more;
  if (status === EOF) return fail('unexpected EOF');
  const sp = status.indexOf(' ');
  if (sp < 0) return fail(`malformed HTTP response ${goQuote(status)}`);
  const proto = status.slice(0, sp);
  const rest = status.slice(sp + 1).replace(/^ +/, '');
  const code = rest.split(' ')[0] ?? '';
  if (code.length !== 3) return fail(`malformed HTTP status code ${goQuote(code)}`);
  const n = goAtoi3(code);
  if (n === undefined || n < 0) return fail(`malformed HTTP status code ${goQuote(code)}`);
  if (!goHttpVersionOk(proto)) return fail(`malformed HTTP version ${goQuote(proto)}`);

  const first = lines.peek();
  if (first === ' ' || first === '\t') {
    const l = lines.next();
    return typeof l === 'string' ? fail(`malformed MIME header initial line: ${goQuote(l.slice(0, 80))}`) : more;
  }
  const fields = new Map<string, string[]>();
  for (;;) {
    let kv = lines.next();
    if (kv === NEED_MORE) return more;
    if (kv === EOF) return fail('unexpected EOF');
    if (kv === '') break;
    if (!kv.includes(':')) return fail(`malformed MIME header: missing colon: ${goQuote(kv)}`);
    // obs-fold: continuation lines join the field with one space each, trimmed, as textproto's
    // readContinuedLineSlice. Joined once at the end: a server may send 16,000 of them in 64 KiB, and re-trimming
    // the growing line at each one was quadratic (a second of the event loop per response).
    if (lines.peek() === ' ' || lines.peek() === '\t') {
      const parts = [trimEnd(kv)];
      while (lines.peek() === ' ' || lines.peek() === '\t') {
        const more = lines.next();
        if (typeof more !== 'string') break;
        parts.push(trimEnd(more.slice(leadingSpace(more))));
      }
      kv = parts.join(' ');
    }
    const colon = kv.indexOf(':');
    const key = kv.slice(0, colon);
    const value = kv.slice(colon + 1);
    if (!validKey(key) || !validValue(value)) return fail(`malformed MIME header line: ${goQuote(kv)}`);
    const canon = key.includes(' ') ? key : key.toLowerCase();
    const list = fields.get(canon) ?? [];
    list.push(trimEnd(value.slice(leadingSpace(value))));
    fields.set(canon, list);
  }
  // readTransfer's checks on a response.
  const te = fields.get('transfer-encoding');
  if (te !== undefined && proto !== 'HTTP/1.0') {
    if (te.length !== 1) return fail(`too many transfer encodings: [${te.map(goQuote).join(' ')}]`);
    if (te[0]!.toLowerCase() !== 'chunked') return fail(`unsupported transfer encoding: ${goQuote(te[0]!)}`);
    return { status: n, fields, end: lines.offset };
  }
  const cl = fields.get('content-length');
  if (cl !== undefined) {
    const distinct = new Set(cl.map((v) => v.trim()));
    if (cl.length > 1 && distinct.size > 1)
      return fail(`http: message cannot contain multiple Content-Length headers; got [${cl.map(goQuote).join(' ')}]`);
    const v = cl[0]!.trim();
    if (v !== '' && !/^[0-9]+$/.test(v)) return fail(`bad Content-Length ${goQuote(v)}`);
  }
  return { status: n, fields, end: lines.offset };
}
