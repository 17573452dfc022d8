// Reads a Kubernetes list response (`{"metadata":{"continue":"..."},"items":[{...},{...}]}`) as its bytes arrive and
// decodes one item at a time, so a page costs the memory of its largest object, never of the page, and listing can
// stop at the item that meets the minimum. Every top-level value and every item is checked by JSON.parse on its own;
// the structure around them by this scanner. Depends on nothing.
import { ReadBudgetExceeded, type ReadBudget } from './read-budget.js';

/** The response is not a JSON object (or ends before it does). */
export class NotJsonError extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACK = 0x5b;
const RBRACK = 0x5d;

const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

// Where the scanner is in `{ "key": value, ... "items": [ item, ... ] }`.
const START = 0;
const KEY_OR_END = 1; // after `{`
const KEY_START = 2; // after `,` in the object
const KEY = 3; // inside a key's string
const AFTER_KEY = 4; // expecting `:`
const VALUE = 5; // expecting a value
const COMMA_OR_END = 6; // after a value in the object
const ITEM_OR_END = 7; // after `[` of items
const ITEM_START = 8; // after `,` in items
const ITEM_COMMA_OR_END = 9; // after an item
const DONE = 10; // after the closing `}`
const CAPTURE = 11; // inside a value being collected

// How a collected value ends.
const NESTED = 0; // an object or array: at its closing bracket
const STRING = 1; // a string: at its closing quote
const SCALAR = 2; // a number or literal: before the next delimiter

export interface ListScanResult {
  /** `metadata.continue`, when the response holds a non-empty one. */
  continueToken?: string;
  /** Whether the response has an `items` array. */
  sawItems: boolean;
  /** Items decoded. */
  items: number;
}

export class ListScanner {
  private state = START;
  private key: number[] = [];
  private keyLong = false;
  private keyEscaped = false;
  private currentKey = '';
  private esc = false;
  private inStr = false;
  private depth = 0;
  private mode = NESTED;
  private kind: 'item' | 'metadata' | 'other' = 'other';
  private returnTo = COMMA_OR_END;
  private parts: Buffer[] = [];
  private size = 0;
  /** Where a value that spans chunks is put together: grown to the largest such value (at most maxObjectBytes) and
   * reused, so a page allocates no buffer per item. A value within one chunk is decoded from the chunk itself. */
  private scratch: Buffer = Buffer.alloc(0);
  /** Bytes of the open value already held at the start of `scratch` (its first part is then that view). */
  private held = 0;
  private stopped = false;
  private readonly result: ListScanResult = { sawItems: false, items: 0 };

  /** `onItem` returns true to stop reading (the minimum is met). */
  constructor(
    private readonly budget: Pick<ReadBudget, 'itemsPerPage' | 'maxObjectBytes'>,
    private readonly onItem: (item: unknown) => boolean,
  ) {}

  /** Feeds the next bytes; returns true once `onItem` asked to stop. Throws NotJsonError or ReadBudgetExceeded. */
  write(chunk: Buffer): boolean {
    const n = chunk.length;
    let i = 0;
    let segStart = 0;
    while (i < n && !this.stopped) {
      if (this.state === CAPTURE) {
        let done = false;
        if (this.mode === SCALAR) {
          for (; i < n; i++) {
            const c = chunk[i] as number;
            if (c === COMMA || c === RBRACE || c === RBRACK || isWs(c)) {
              done = true;
              break;
            }
          }
        } else {
          for (; i < n; i++) {
            const c = chunk[i] as number;
            if (this.esc) this.esc = false;
            else if (this.inStr) {
              if (c === BACKSLASH) this.esc = true;
              else if (c === QUOTE) {
                this.inStr = false;
                if (this.mode === STRING) {
                  i++;
                  done = true;
                  break;
                }
              }
            } else if (c === QUOTE) this.inStr = true;
            else if (c === LBRACE || c === LBRACK) this.depth++;
            else if ((c === RBRACE || c === RBRACK) && --this.depth === 0) {
              i++;
              done = true;
              break;
            }
          }
        }
        this.collect(chunk.subarray(segStart, i));
        if (done) this.finishValue();
        continue;
      }
      const c = chunk[i] as number;
      if (this.state === KEY) {
        i++;
        if (this.esc) {
          this.esc = false;
          this.keyByte(c);
        } else if (c === BACKSLASH) {
          this.esc = true;
          this.keyEscaped = true;
          this.keyByte(c);
        } else if (c === QUOTE) {
          this.currentKey = this.decodeKey();
          this.state = AFTER_KEY;
        } else this.keyByte(c);
        continue;
      }
      if (isWs(c)) {
        i++;
        continue;
      }
      switch (this.state) {
        case START:
          if (c !== LBRACE) throw new NotJsonError('the response is not a JSON object');
          this.state = KEY_OR_END;
          i++;
          break;
        case KEY_OR_END:
        case KEY_START:
          if (c === QUOTE) {
            this.key = [];
            this.keyLong = false;
            this.keyEscaped = false;
            this.state = KEY;
          } else if (c === RBRACE && this.state === KEY_OR_END) this.state = DONE;
          else throw new NotJsonError('expected a key');
          i++;
          break;
        case AFTER_KEY:
          if (c !== COLON) throw new NotJsonError("expected ':'");
          this.state = VALUE;
          i++;
          break;
        case VALUE:
          if (this.currentKey === 'items' && c === LBRACK) {
            this.result.sawItems = true;
            this.state = ITEM_OR_END;
            i++;
          } else {
            segStart = i;
            i = this.startValue(chunk, i, this.currentKey === 'metadata' ? 'metadata' : 'other', COMMA_OR_END);
          }
          break;
        case COMMA_OR_END:
          if (c === COMMA) this.state = KEY_START;
          else if (c === RBRACE) this.state = DONE;
          else throw new NotJsonError("expected ',' or '}'");
          i++;
          break;
        case ITEM_OR_END:
        case ITEM_START:
          if (c === RBRACK && this.state === ITEM_OR_END) {
            this.state = COMMA_OR_END;
            i++;
          } else {
            // Refused before it is decoded: the apiserver never sends more than the limit asked for.
            if (this.result.items >= this.budget.itemsPerPage)
              throw new ReadBudgetExceeded(
                'itemsPerPage',
                `the member returned more than ${this.budget.itemsPerPage} items in one page (limit=${this.budget.itemsPerPage})`,
              );
            segStart = i;
            i = this.startValue(chunk, i, 'item', ITEM_COMMA_OR_END);
          }
          break;
        case ITEM_COMMA_OR_END:
          if (c === COMMA) this.state = ITEM_START;
          else if (c === RBRACK) this.state = COMMA_OR_END;
          else throw new NotJsonError("expected ',' or ']'");
          i++;
          break;
        case DONE:
          throw new NotJsonError('data after the end of the object');
        default:
          throw new NotJsonError('unexpected state');
      }
    }
    this.hold();
    return this.stopped;
  }

  /**
   * A value still open at the end of a chunk: its parts copied into `scratch` (after what an earlier chunk left there),
   * as the transport may read the next chunk into the same memory. Each byte is copied once.
   */
  private hold(): void {
    const parts = this.parts;
    if (parts.length === 0 || this.stopped) return;
    const from = this.held > 0 ? 1 : 0;
    this.grow();
    let at = this.held;
    for (let k = from; k < parts.length; k++) at += (parts[k] as Buffer).copy(this.scratch, at);
    this.held = at;
    this.parts = [this.scratch.subarray(0, at)];
  }

  /** Ends the response; throws NotJsonError when it stopped short of a whole object (unless reading was stopped). */
  end(): ListScanResult {
    if (!this.stopped && this.state !== DONE) throw new NotJsonError('the response ends before its JSON does');
    return this.result;
  }

  /** Starts collecting the value whose first byte is chunk[i]; returns the index the capture loop starts at. */
  private startValue(chunk: Buffer, i: number, kind: 'item' | 'metadata' | 'other', returnTo: number): number {
    const c = chunk[i] as number;
    this.kind = kind;
    this.returnTo = returnTo;
    this.parts = [];
    this.size = 0;
    this.held = 0;
    this.esc = false;
    this.state = CAPTURE;
    // The opening byte is left for the capture loop, so it is collected with the rest even at a chunk's end.
    this.depth = 0;
    this.inStr = false;
    if (c === LBRACE || c === LBRACK) {
      this.mode = NESTED;
      return i;
    }
    if (c === QUOTE) {
      this.mode = STRING;
      return i;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
      this.mode = SCALAR;
      return i;
    }
    throw new NotJsonError('expected a value');
  }

  private collect(part: Buffer): void {
    if (part.length === 0) return;
    this.size += part.length;
    if (this.size > this.budget.maxObjectBytes)
      throw new ReadBudgetExceeded(
        'maxObjectBytes',
        `${this.kind === 'item' ? 'an object' : `the value of ${JSON.stringify(this.currentKey)}`} is larger than ${this.budget.maxObjectBytes} bytes`,
      );
    this.parts.push(part);
  }

  private finishValue(): void {
    let value: unknown;
    try {
      value = JSON.parse(this.valueText());
    } catch {
      throw new NotJsonError('a value is not valid JSON');
    }
    this.parts = [];
    this.held = 0;
    this.state = this.returnTo;
    if (this.kind === 'item') {
      this.result.items++;
      if (this.onItem(value)) this.stopped = true;
    } else if (this.kind === 'metadata' && value !== null && typeof value === 'object') {
      const cont = (value as { continue?: unknown }).continue;
      if (typeof cont === 'string' && cont !== '') this.result.continueToken = cont;
    }
  }

  /** The collected value's text. Buffer.concat would allocate a buffer per item outside the V8 heap, which the
   * collector is slow to see: a page of large items then held tens of MiB of dead buffers at once. */
  private valueText(): string {
    const parts = this.parts;
    if (parts.length === 1) return (parts[0] as Buffer).toString('utf8');
    this.grow();
    // What an earlier chunk left is in place already (hold()).
    let at = this.held;
    for (let k = this.held > 0 ? 1 : 0; k < parts.length; k++) at += (parts[k] as Buffer).copy(this.scratch, at);
    return this.scratch.toString('utf8', 0, at);
  }

  /** `scratch` grown to hold the open value (at most maxObjectBytes), keeping what it holds of it. */
  private grow(): void {
    if (this.scratch.length >= this.size) return;
    let next = Math.max(this.scratch.length * 2, 64 * 1024);
    while (next < this.size) next *= 2;
    const grown = Buffer.allocUnsafe(Math.min(next, this.budget.maxObjectBytes)); // size <= maxObjectBytes
    this.scratch.copy(grown, 0, 0, this.held);
    this.scratch = grown;
  }

  private keyByte(c: number): void {
    if (this.key.length < 64) this.key.push(c);
    else this.keyLong = true;
  }

  private decodeKey(): string {
    if (this.keyLong) return ''; // no key that matters is that long
    const raw = Buffer.from(this.key).toString('utf8');
    if (!this.keyEscaped) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      throw new NotJsonError('a key is not valid JSON');
    }
  }
}
