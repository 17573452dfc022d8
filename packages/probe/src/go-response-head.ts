// Go's http.ReadResponse on a response head, as the prober's own HTTP/1.x client (http1.ts) reads it: the status line,
// the MIME header (textproto's rules: bare LF, obs-fold, a space before the colon) and readTransfer's checks on
// Transfer-Encoding and Content-Length, in the words of the kubelet's Go client (`malformed HTTP status code "abc"`,
// `malformed MIME header: missing colon: "Content-Le"`, `unexpected EOF`), and how the body that follows is framed.
// Incremental: bytes are fed as they arrive and each is looked at once (a head trickled a byte at a time, or folded
// over 64,000 lines, costs what it weighs), and an error is seen as soon as Go would see it. Written from Go's
// net/http and net/textproto behaviour; copies no code. Depends on nothing.
import { goQuote } from './go-url.js';

/** How the body after a head is delimited, as Go's readTransfer decides it for a GET's response. */
export type BodyFraming =
  | { readonly kind: 'none' }
  | { readonly kind: 'length'; readonly length: number }
  | { readonly kind: 'chunked' }
  /** Read until the server closes. */
  | { readonly kind: 'close' };

export interface GoResponseHead {
  status: number;
  /** Field names in lower case (a name with a space kept as it is, as Go does not canonicalize it). */
  fields: ReadonlyMap<string, readonly string[]>;
  framing: BodyFraming;
}

/** What a step of the reader found: a head (and where its body starts in the text just fed), an error, or neither. */
export type GoHeadStep = { needMore: true } | { error: string } | { head: GoResponseHead; rest: number };

const NEED_MORE: GoHeadStep = Object.freeze({ needMore: true });

const FIELD_BYTE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;

function validKey(k: string): boolean {
  if (k === '') return false;
  for (const c of k) if (!FIELD_BYTE.test(c) && c !== ' ') return false;
  return true;
}

function validValue(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const b = v.charCodeAt(i);
    if ((b < 0x20 && b !== 0x09) || b === 0x7f) return false;
  }
  return true;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t';

/** textproto's trim: spaces and tabs off both ends (loops: no regex backtracking on long runs). */
function trim(s: string): string {
  let i = 0;
  while (isSpace(s[i])) i++;
  let end = s.length;
  while (end > i && isSpace(s[end - 1])) end--;
  return s.slice(i, end);
}

/** Go's ParseHTTPVersion: `HTTP/1.1`, `HTTP/1.0`, or `HTTP/` digit `.` digit; its major and minor. */
function goHttpVersion(v: string): [number, number] | undefined {
  if (v === 'HTTP/1.1') return [1, 1];
  if (v === 'HTTP/1.0') return [1, 0];
  const m = /^HTTP\/([0-9])\.([0-9])$/.exec(v);
  return m === null ? undefined : [Number(m[1]), Number(m[2])];
}

/** Go's strconv.Atoi on a three-byte status code: an optional sign, then digits. */
function goAtoi3(s: string): number | undefined {
  return /^[+-]?[0-9]+$/.test(s) ? Number(s) : undefined;
}

const MAX_INT63 = 2n ** 63n - 1n;

/** The first line of a MIME header may not start with a space; Go quotes at most this much of it. */
const INITIAL_LINE_LIMIT = 80;

type Stage = 'status' | 'first' | 'fields' | 'done';

/**
 * One response head (or, with `mimeOnly`, one MIME header such as a chunked body's trailer), fed text (latin1, a char
 * a byte) as it arrives. Lines are found in each new piece only; a line split over pieces is joined once it ends.
 */
export class GoHeadReader {
  private stage: Stage;
  /** Pieces of the line not yet ended. */
  private partial: string[] = [];
  private partialLength = 0;
  /** The field being read, with its continuation lines (each trimmed), until the next line's first byte is known. */
  private pending: string[] | undefined;
  private readonly fields = new Map<string, string[]>();
  private status = 0;
  private version: [number, number] = [1, 1];
  private failed: string | undefined;

  constructor(mimeOnly = false) {
    this.stage = mimeOnly ? 'first' : 'status';
  }

  /** The fields read so far (the whole header once a step returned it). */
  get header(): ReadonlyMap<string, readonly string[]> {
    return this.fields;
  }

  /**
   * Takes the next text; `closed`: the server closed, nothing more will come (a partial last line is then a line, as
   * bufio's ReadLine returns it). Returns the head once its blank line is in, with the index in `text` where what
   * follows starts; an error (and the same error again if fed more); or needMore.
   */
  feed(text: string, closed: boolean): GoHeadStep {
    if (this.failed !== undefined) return { error: this.failed };
    if (this.stage === 'done') return { error: 'head already read' };
    let pos = 0;
    while (pos < text.length) {
      const nl = text.indexOf('\n', pos);
      if (nl < 0) {
        this.partial.push(pos === 0 ? text : text.slice(pos));
        this.partialLength += text.length - pos;
        pos = text.length;
        break;
      }
      let line = text.slice(pos, nl);
      if (this.partial.length > 0) {
        this.partial.push(line);
        line = this.partial.join('');
        this.partial = [];
        this.partialLength = 0;
      }
      pos = nl + 1;
      const step = this.line(line.endsWith('\r') ? line.slice(0, -1) : line, text, pos);
      if (step !== undefined) return step;
    }
    // What Go sees from the first byte of the next line (its Peek): a folded field ends, the first line is checked.
    const early = this.peeked();
    if (early !== undefined) return early;
    if (!closed) return NEED_MORE;
    if (this.partial.length > 0) {
      const line = this.partial.join('');
      this.partial = [];
      this.partialLength = 0;
      const step = this.line(line, text, text.length);
      if (step !== undefined) return step;
    }
    // Nothing more: a field in progress ends (skipSpace finds nothing), then the next line is EOF.
    if (this.pending !== undefined) {
      const err = this.endField();
      if (err !== undefined) return this.fail(err);
    }
    return this.fail('unexpected EOF');
  }

  private fail(error: string): GoHeadStep {
    this.failed = error;
    return { error };
  }

  /** The first byte of the line after a complete one, when it has come. */
  private nextByte(): string | undefined {
    return this.partial.length > 0 ? this.partial[0]![0] : undefined;
  }

  private peeked(): GoHeadStep | undefined {
    const next = this.nextByte();
    if (next === undefined) return undefined;
    if (this.stage === 'first') {
      if (!isSpace(next)) {
        this.stage = 'fields';
      } else if (this.partialLength > INITIAL_LINE_LIMIT) {
        return this.fail('message too large');
      }
      return undefined;
    }
    if (this.stage === 'fields' && this.pending !== undefined && !isSpace(next)) {
      const err = this.endField();
      if (err !== undefined) return this.fail(err);
    }
    return undefined;
  }

  /** One complete line (its line end dropped); `rest`: where the text after it starts. */
  private line(line: string, text: string, rest: number): GoHeadStep | undefined {
    switch (this.stage) {
      case 'status':
        return this.statusLine(line);
      case 'first':
        if (isSpace(line[0])) {
          if (line.length > INITIAL_LINE_LIMIT) return this.fail('message too large');
          return this.fail(`malformed MIME header initial line: ${goQuote(line)}`);
        }
        this.stage = 'fields';
        return this.fieldLine(line, text, rest);
      case 'fields':
        return this.fieldLine(line, text, rest);
      default:
        return undefined;
    }
  }

  private statusLine(line: string): GoHeadStep | undefined {
    const sp = line.indexOf(' ');
    if (sp < 0) return this.fail(`malformed HTTP response ${goQuote(line)}`);
    const proto = line.slice(0, sp);
    let i = sp + 1;
    while (line[i] === ' ') i++;
    const rest = line.slice(i);
    const codeEnd = rest.indexOf(' ');
    const code = codeEnd < 0 ? rest : rest.slice(0, codeEnd);
    if (code.length !== 3) return this.fail(`malformed HTTP status code ${goQuote(code)}`);
    const n = goAtoi3(code);
    if (n === undefined || n < 0) return this.fail(`malformed HTTP status code ${goQuote(code)}`);
    const version = goHttpVersion(proto);
    if (version === undefined) return this.fail(`malformed HTTP version ${goQuote(proto)}`);
    this.status = n;
    this.version = version;
    this.stage = 'first';
    return undefined;
  }

  private fieldLine(line: string, text: string, rest: number): GoHeadStep | undefined {
    if (this.pending !== undefined) {
      // A continuation (obs-fold): joined with one space, trimmed, as textproto's readContinuedLineSlice.
      if (isSpace(line[0])) {
        this.pending.push(trim(line));
        return undefined;
      }
      const err = this.endField();
      if (err !== undefined) return this.fail(err);
    }
    if (line === '') {
      this.stage = 'done';
      const framing = this.framing();
      if (typeof framing === 'string') return this.fail(framing);
      return { head: { status: this.status, fields: this.fields, framing }, rest };
    }
    if (!line.includes(':')) return this.fail(`malformed MIME header: missing colon: ${goQuote(line)}`);
    this.pending = [trim(line)];
    return undefined;
  }

  /** The field read (and its continuations) checked and added; Go's error for it, if any. */
  private endField(): string | undefined {
    const kv = this.pending!.length === 1 ? this.pending![0]! : this.pending!.join(' ');
    this.pending = undefined;
    const colon = kv.indexOf(':');
    const key = kv.slice(0, colon);
    const value = kv.slice(colon + 1);
    if (!validKey(key) || !validValue(value)) return `malformed MIME header line: ${goQuote(kv)}`;
    const canon = key.includes(' ') ? key : key.toLowerCase();
    const list = this.fields.get(canon);
    const v = trim(value);
    if (list === undefined) this.fields.set(canon, [v]);
    else list.push(v);
    return undefined;
  }

  /** readTransfer on a response to a GET: its checks (their errors), then how the body is delimited. */
  private framing(): BodyFraming | string {
    const [major, minor] = this.version;
    const atLeast11 = major > 1 || (major === 1 && minor >= 1);
    let chunked = false;
    const te = this.fields.get('transfer-encoding');
    if (te !== undefined && atLeast11) {
      if (te.length !== 1) return `too many transfer encodings: [${te.map(goQuote).join(' ')}]`;
      if (te[0]!.toLowerCase() !== 'chunked') return `unsupported transfer encoding: ${goQuote(te[0]!)}`;
      chunked = true;
    }
    let length = -1;
    const cl = this.fields.get('content-length');
    if (cl !== undefined) {
      const first = cl[0]!;
      for (const v of cl)
        if (v !== first)
          return `http: message cannot contain multiple Content-Length headers; got [${cl.map(goQuote).join(' ')}]`;
      if (first === '') return `invalid empty Content-Length ${goQuote(first)}`;
      if (!/^[0-9]+$/.test(first) || (first.length > 18 && BigInt(first) > MAX_INT63))
        return `bad Content-Length ${goQuote(first)}`;
      length = Number(first);
    }
    const status = this.status;
    if ((status >= 100 && status < 200) || status === 204 || status === 304) return { kind: 'none' };
    if (chunked) return { kind: 'chunked' };
    if (length === 0) return { kind: 'none' };
    if (length > 0) return { kind: 'length', length };
    return { kind: 'close' };
  }
}

/** A head as Go's ReadResponse reads it: its error, or its status and fields (names in lower case) and where it ends. */
export type GoHead =
  | { error: string }
  | { needMore: true }
  | { status: number; fields: ReadonlyMap<string, readonly string[]>; framing: BodyFraming; end: number };

/** The head at the start of `data` (latin1), read whole; `closed`: no more bytes will come. */
export function goReadResponseHead(data: string, closed: boolean): GoHead {
  const step = new GoHeadReader().feed(data, closed);
  if (!('head' in step)) return step;
  return { ...step.head, end: step.rest };
}

/**
 * The error Go's ReadResponse (and its transfer checks) returns for `data` (the bytes received, latin1), or undefined
 * when Go reads it without error as far as it goes.
 */
export function goResponseHeadError(data: string, closed: boolean): string | undefined {
  const head = goReadResponseHead(data, closed);
  return 'error' in head ? head.error : undefined;
}
