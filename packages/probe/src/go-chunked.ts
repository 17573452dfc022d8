// Go's chunked transfer decoding (net/http/internal's chunkedReader and the body's trailer read) for the prober's own
// HTTP/1.x client: chunk-size lines ending in CRLF (a bare LF or a stray CR refused), extensions dropped, at most 16
// hex digits, the CRLF after each chunk's data, the 16 KiB allowance of non-data overhead, and the trailer (CRLF, or a
// MIME header ending in CRLF CRLF within 4096 bytes). Errors are Go's words. Incremental: each byte is looked at once;
// the data is handed on as ranges of the buffer fed, never copied. Depends on go-response-head.ts only.
import { GoHeadReader } from './go-response-head.js';

/** bufio's default buffer: a chunk-size line and a trailer must fit in it. */
const BUFFER = 4096;
const MAX_EXCESS = 16 * 1024;

type State = 'size' | 'data' | 'cr' | 'lf' | 'trailer' | 'done';

export type ChunkedStep = 'more' | 'end' | { error: string };

export class GoChunkedReader {
  private state: State = 'size';
  /** The chunk-size line so far (latin1). */
  private line = '';
  private left = 0;
  private excess = 0;
  private trailer = '';

  /**
   * Decodes `buf[start, end)`, calling `data(buf, from, to)` for each range of body bytes; `data` returns true to
   * stop. Returns 'end' once the body (and its trailer) is complete or `data` stopped, an error, or 'more'.
   */
  feed(buf: Buffer, start: number, end: number, data: (buf: Buffer, from: number, to: number) => boolean): ChunkedStep {
    let i = start;
    while (i < end) {
      switch (this.state) {
        case 'size': {
          const nl = buf.indexOf(10, i);
          const stop = nl < 0 || nl >= end ? end : nl + 1;
          this.line += buf.toString('latin1', i, stop);
          i = stop;
          if (stop === nl + 1 && nl >= 0 && nl < end) {
            const err = this.sizeLine();
            if (err !== undefined) return { error: err };
          } else if (this.line.length >= BUFFER) {
            return { error: 'header line too long' };
          }
          break;
        }
        case 'data': {
          const n = Math.min(this.left, end - i);
          this.left -= n;
          if (this.left === 0) this.state = 'cr';
          if (data(buf, i, i + n)) {
            this.state = 'done';
            return 'end';
          }
          i += n;
          break;
        }
        case 'cr':
        case 'lf': {
          const want = this.state === 'cr' ? 13 : 10;
          if (buf[i] !== want) return { error: 'malformed chunked encoding' };
          this.state = this.state === 'cr' ? 'lf' : 'size';
          i++;
          break;
        }
        case 'trailer': {
          this.trailer += buf.toString('latin1', i, end);
          i = end;
          const t = this.trailerStep(false);
          if (t !== 'more') return t;
          break;
        }
        case 'done':
          return 'end';
      }
    }
    return this.state === 'done' ? 'end' : 'more';
  }

  /** The server closed: the error Go's reader returns there, or 'end' when the body was complete. */
  close(): ChunkedStep {
    if (this.state === 'trailer') return this.trailerStep(true);
    return { error: 'unexpected EOF' };
  }

  private sizeLine(): string | undefined {
    const p = this.line;
    this.line = '';
    const cr = p.indexOf('\r');
    if (cr < 0) return 'chunked line ends with bare LF';
    if (cr !== p.length - 2) return 'invalid CR in chunked line';
    let size = p.slice(0, -2);
    if (size.length >= BUFFER) return 'header line too long';
    this.excess += size.length + 2;
    let e = size.length;
    while (e > 0 && (size[e - 1] === ' ' || size[e - 1] === '\t')) e--;
    size = size.slice(0, e);
    const semi = size.indexOf(';');
    if (semi >= 0) size = size.slice(0, semi);
    if (size === '') return 'empty hex number for chunk length';
    let n = 0;
    for (let k = 0; k < size.length; k++) {
      const c = size.charCodeAt(k);
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
      if (d < 0) return 'invalid byte in chunk length';
      if (k === 16) return 'http chunk length too large';
      // Past 2^53 the count is no longer exact; no body read here comes near (the largest bound is 32 MiB).
      n = n * 16 + d;
    }
    this.excess = Math.max(0, this.excess - (16 + 2 * n));
    if (this.excess > MAX_EXCESS) return 'chunked encoding contains too much non-data';
    if (n === 0) {
      this.state = 'trailer';
      return undefined;
    }
    this.left = n;
    this.state = 'data';
    return undefined;
  }

  /** body.readTrailer: CRLF ends it; else a MIME header that must end in CRLF CRLF within the buffer. */
  private trailerStep(closed: boolean): ChunkedStep {
    const t = this.trailer;
    if (t.length >= 2 && t.startsWith('\r\n')) {
      this.state = 'done';
      return 'end';
    }
    if (t.length < 2) return closed ? { error: 'http: unexpected EOF reading trailer' } : 'more';
    const at = t.indexOf('\r\n\r\n');
    if (at < 0 || at + 4 > BUFFER) {
      if (closed || t.length >= BUFFER) return { error: 'http: suspiciously long trailer after chunked body' };
      return 'more';
    }
    const step = new GoHeadReader(true).feed(t.slice(0, at + 4), false);
    if ('error' in step)
      return { error: step.error === 'unexpected EOF' ? 'http: unexpected EOF reading trailer' : step.error };
    this.state = 'done';
    return 'end';
  }
}
