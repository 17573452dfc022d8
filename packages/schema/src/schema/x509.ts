// Whether a PEM block holds an X.509 certificate, with the verdict node:crypto's `new X509Certificate(block)` gives:
// OpenSSL 3.0's (and 3.5's: where they differ, the stricter) PEM_read_bio_X509_AUX (the PEM reader: BEGIN line, optional header, base64 body) and d2i_X509_AUX
// (the certificate's ASN.1 structure, read as OpenSSL's template decoder reads it: BER lengths, the INTEGER, OBJECT,
// BOOLEAN and BIT STRING checks, names whose strings must convert to UTF-8, trailing auxiliary trust data). Signatures,
// keys, dates and extensions' contents are not judged, as OpenSSL does not judge them on reading. Our own code, not
// node:crypto, so that the schema library runs in a browser; test/unit/schema/x509.test.ts holds it to node:crypto.
// Pure: no I/O, nothing of Node's.

/** A thrown marker: the input is not a certificate. Caught at the top; never escapes. */
class NotCertificate extends Error {}
const fail = (): never => {
  throw new NotCertificate();
};

// --- The PEM reader (crypto/pem/pem_lib.c: get_name, get_header_and_data, sanitize_line, EVP_DecodeUpdate) --------

const LINESIZE = 255; // BIO_gets reads at most LINESIZE - 1 bytes a call
const NL = 0x0a;

/** The pieces BIO_gets returns: up to and including a newline, at most 254 bytes each. */
function chunks(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let i = 0;
  while (i < bytes.length) {
    let end = bytes.indexOf(NL, i);
    end = end < 0 ? bytes.length : end + 1;
    if (end - i > LINESIZE - 1) end = i + LINESIZE - 1;
    out.push(bytes.subarray(i, end));
    i = end;
  }
  return out;
}

/** sanitize_line with PEM_FLAG_EAY_COMPATIBLE: trailing bytes that are <= ' ' as a signed char go, then "\n". */
function sanitize(chunk: Uint8Array): Uint8Array {
  let len = chunk.length;
  while (len > 0 && ((chunk[len - 1] as number) <= 0x20 || (chunk[len - 1] as number) >= 0x80)) len--;
  const line = new Uint8Array(len + 1);
  line.set(chunk.subarray(0, len));
  line[len] = NL;
  return line;
}

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const BEGIN = ascii('-----BEGIN ');
const END = ascii('-----END ');
const TAIL = ascii('-----\n');

function hasAt(line: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (at < 0 || at + prefix.length > line.length) return false;
  for (let i = 0; i < prefix.length; i++) if (line[at + i] !== prefix[i]) return false;
  return true;
}

interface PemObject {
  name: Uint8Array;
  header: number[];
  data: number[];
}

class PemReader {
  private next = 0;
  constructor(private readonly lines: Uint8Array[]) {}

  private gets(): Uint8Array | undefined {
    return this.lines[this.next++];
  }

  /** get_name: the first BEGIN line from here on; its name up to a NUL, as C reads it. */
  private name(): Uint8Array {
    for (;;) {
      const chunk = this.gets();
      if (chunk === undefined) return fail();
      const line = sanitize(chunk);
      if (hasAt(line, 0, BEGIN) && line.length >= TAIL.length && hasAt(line, line.length - TAIL.length, TAIL)) {
        const name = line.subarray(BEGIN.length, line.length - TAIL.length);
        const nul = name.indexOf(0);
        return nul < 0 ? name : name.subarray(0, nul);
      }
    }
  }

  /** get_header_and_data, then the base64 decoding of the data. */
  read(): PemObject {
    const name = this.name();
    let header: number[] = [];
    let data: number[] = [];
    let into = header;
    let state: 'maybe' | 'in' | 'post' = 'maybe';
    let partial = false;
    let end = false;
    for (;;) {
      const chunk = this.gets();
      if (chunk === undefined) return fail();
      const prevPartial = partial;
      partial = chunk.length === LINESIZE - 1 && chunk[LINESIZE - 2] !== NL;
      if (state === 'maybe' && chunk.includes(0x3a /* : */)) state = 'in';
      const line = sanitize(chunk);
      if (line[0] === NL) {
        if (!prevPartial) {
          if (state === 'post') return fail(); // a second blank line
          state = 'post';
          into = data;
        }
        continue;
      }
      if (hasAt(line, 0, END)) {
        let at = END.length;
        for (const b of name) {
          if (line[at] !== b) return fail();
          at++;
        }
        if (!hasAt(line, at, TAIL)) return fail();
        if (state === 'maybe') {
          const lines = header;
          header = data;
          data = lines;
        }
        break;
      } else if (end) return fail(); // a short line before the last
      for (const b of line) into.push(b);
      if (state === 'post') {
        if (line.length > 65) return fail();
        if (line.length < 65) end = true;
      }
    }
    return { name, header, data: decodeBase64Body(data) };
  }
}

// EVP_DecodeUpdate's table, by what a byte is: a base64 digit (its value), whitespace and line ends (skipped), '-'
// (the end of the data), or an error.
const SKIP = -2;
const STOP = -3;
const ERROR = -1;
function base64Class(b: number): number {
  if (b >= 0x41 && b <= 0x5a) return b - 0x41;
  if (b >= 0x61 && b <= 0x7a) return b - 0x61 + 26;
  if (b >= 0x30 && b <= 0x39) return b - 0x30 + 52;
  if (b === 0x2b) return 62;
  if (b === 0x2f) return 63;
  if (b === 0x3d) return 0; // '=': a digit of value 0, counted as padding
  if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) return SKIP;
  if (b === 0x2d) return STOP;
  return ERROR;
}

/** EVP_DecodeUpdate + EVP_DecodeFinal: whole quads, '=' only at the end and at most two, '-' ends the data. */
function decodeBase64Body(text: number[]): number[] {
  const digits: number[] = [];
  let pad = 0;
  for (const b of text) {
    const v = base64Class(b);
    if (v === ERROR) return fail();
    if (b === 0x3d) pad++;
    else if (pad > 0 && v >= 0) return fail(); // data after padding
    if (pad > 2) return fail();
    if (v === STOP) break;
    if (v >= 0) digits.push(v);
  }
  if (digits.length % 4 !== 0) return fail();
  const out: number[] = [];
  for (let i = 0; i < digits.length; i += 4) {
    const n =
      ((digits[i] as number) << 18) |
      ((digits[i + 1] as number) << 12) |
      ((digits[i + 2] as number) << 6) |
      (digits[i + 3] as number);
    out.push((n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  }
  out.length -= pad;
  return out;
}

const CERTIFICATE_NAMES = new Set(['CERTIFICATE', 'X509 CERTIFICATE', 'TRUSTED CERTIFICATE']);

/** PEM_bytes_read_bio for PEM_STRING_X509_TRUSTED: the DER of the first object that may hold a certificate. */
function pemCertificateDer(block: string): Uint8Array {
  const reader = new PemReader(chunks(new TextEncoder().encode(block)));
  for (;;) {
    const obj = reader.read();
    if (!CERTIFICATE_NAMES.has(String.fromCharCode(...obj.name))) continue;
    // Any header makes it an encrypted PEM (Proc-Type: 4,ENCRYPTED), which X509Certificate, having no password, refuses.
    if (obj.header.length > 0) return fail();
    return Uint8Array.from(obj.data);
  }
}

// --- The DER/BER reader (crypto/asn1/asn1_lib.c ASN1_get_object, tasn_dec.c) ---------------------------------------

const UNIVERSAL = 0x00;
const CONTEXT = 0x80;
const T_BOOLEAN = 1;
const T_INTEGER = 2;
const T_BIT_STRING = 3;
const T_OCTET_STRING = 4;
const T_NULL = 5;
const T_OBJECT = 6;
const T_ENUMERATED = 10;
const T_UTCTIME = 23;
const T_GENERALIZEDTIME = 24;
const T_UTF8STRING = 12;
const T_SEQUENCE = 16;
const T_SET = 17;
const T_UNIVERSALSTRING = 28;
const T_BMPSTRING = 30;
/** V_ASN1_OTHER: an ANY whose tag is not universal, kept encoded. */
const T_OTHER = -3;

// The B_ASN1_* bits of ASN1_tag2bit, for the multi-string types a Name's values and Time may be.
const B = {
  NUMERIC: 0x1,
  PRINTABLE: 0x2,
  T61: 0x4,
  VIDEOTEX: 0x8,
  IA5: 0x10,
  GRAPHIC: 0x20,
  ISO64: 0x40,
  GENERAL: 0x80,
  UNIVERSAL: 0x100,
  OCTET: 0x200,
  BIT: 0x400,
  BMP: 0x800,
  UNKNOWN: 0x1000,
  UTF8: 0x2000,
  UTCTIME: 0x4000,
  GENERALIZEDTIME: 0x8000,
  SEQUENCE: 0x10000,
};
// prettier-ignore
const TAG2BIT = [
  0, 0, 0, B.BIT, B.OCTET, 0, 0, B.UNKNOWN, B.UNKNOWN, B.UNKNOWN, 0, B.UNKNOWN, B.UTF8, B.UNKNOWN, B.UNKNOWN,
  B.UNKNOWN, B.SEQUENCE, 0, B.NUMERIC, B.PRINTABLE, B.T61, B.VIDEOTEX, B.IA5, B.UTCTIME, B.GENERALIZEDTIME,
  B.GRAPHIC, B.ISO64, B.GENERAL, B.UNIVERSAL, B.UNKNOWN, B.BMP,
];
const tag2bit = (tag: number): number => (tag >= 0 && tag <= 30 ? (TAG2BIT[tag] as number) : 0);
/** B_ASN1_PRINTABLE: what a Name's attribute value may be. */
const NAME_VALUE_MASK =
  B.NUMERIC | B.PRINTABLE | B.T61 | B.IA5 | B.BIT | B.UNIVERSAL | B.BMP | B.UTF8 | B.SEQUENCE | B.UNKNOWN;
/** ASN1_MASK_CANON: the Name values x509_name_canon converts to UTF-8 (a failed conversion fails the certificate). */
const CANON_MASK = B.UTF8 | B.BMP | B.UNIVERSAL | B.PRINTABLE | B.T61 | B.IA5 | B.ISO64;
const TIME_MASK = B.UTCTIME | B.GENERALIZEDTIME;

const INT_MAX = 0x7fffffff;
/** Returned by a decoder for an OPTIONAL field that is not there. */
const ABSENT = -1;

interface Header {
  tag: number;
  cls: number;
  constructed: boolean;
  indefinite: boolean;
  /** Content length; for indefinite length, all that is left of `len` after the header. */
  length: number;
  /** Where the content starts. */
  content: number;
}

type Decoder = (p: number, len: number, opt: boolean) => number;

class Der {
  constructor(private readonly b: Uint8Array) {}

  private at(i: number): number {
    return this.b[i] ?? 0;
  }

  /** ASN1_get_object; undefined where it sets 0x80 (a bad or overlong header). */
  private object(p: number, omax: number): (Omit<Header, 'content'> & { end: number }) | undefined {
    if (omax <= 0) return undefined;
    let max = omax;
    const first = this.at(p);
    const constructed = (first & 0x20) !== 0;
    const cls = first & 0xc0;
    let tag = first & 0x1f;
    let q = p + 1;
    if (tag === 0x1f) {
      if (--max === 0) return undefined;
      let n = 0;
      while (this.at(q) & 0x80) {
        n = n * 128 + (this.at(q++) & 0x7f);
        if (--max === 0) return undefined;
        if (n > INT_MAX >> 7) return undefined;
      }
      n = n * 128 + (this.at(q++) & 0x7f);
      tag = n;
      if (--max === 0) return undefined;
    } else if (--max === 0) return undefined;
    // asn1_get_length
    if (max-- < 1) return undefined;
    let indefinite = false;
    let length = 0;
    const l0 = this.at(q++);
    if (l0 === 0x80) indefinite = true;
    else if (l0 & 0x80) {
      let i = l0 & 0x7f;
      if (max < i + 1) return undefined;
      while (i > 0 && this.at(q) === 0) {
        q++;
        i--;
      }
      if (i > 8) return undefined;
      while (i > 0) {
        length = length * 256 + this.at(q++);
        i--;
      }
      if (length > Number.MAX_SAFE_INTEGER) return undefined;
    } else length = l0;
    if (indefinite && !constructed) return undefined;
    if (length > omax - (q - p)) return undefined; // ASN1_R_TOO_LONG
    return { tag, cls, constructed, indefinite, length, end: q };
  }

  /** asn1_check_tlen: the header at p within len, or ABSENT for an optional field with another tag. */
  header(p: number, len: number, tag: number, cls: number, opt: boolean): Header | typeof ABSENT {
    if (len <= 0) return fail();
    const o = this.object(p, len);
    if (o === undefined) return fail();
    if (tag >= 0 && (tag !== o.tag || cls !== o.cls)) return opt ? ABSENT : fail();
    const length = o.indefinite ? len - (o.end - p) : o.length;
    return { tag: o.tag, cls: o.cls, constructed: o.constructed, indefinite: o.indefinite, length, content: o.end };
  }

  eoc(p: number, len: number): boolean {
    return len >= 2 && this.at(p) === 0 && this.at(p + 1) === 0;
  }

  /** A SEQUENCE of `fields` (asn1_item_embed_d2i, ASN1_ITYPE_SEQUENCE); the last field is never optional. */
  sequence(fields: { d: Decoder; opt?: boolean }[], tag = T_SEQUENCE, cls = UNIVERSAL): Decoder {
    return (p, len, opt) => {
      const h = this.header(p, len, tag, cls, opt);
      if (h === ABSENT) return ABSENT;
      if (!h.constructed) return fail();
      let q = h.content;
      let l = h.length;
      let eoc = h.indefinite;
      let i = 0;
      for (; i < fields.length; i++) {
        if (l === 0) break;
        if (this.eoc(q, l)) {
          if (!eoc) return fail();
          q += 2;
          l -= 2;
          eoc = false;
          break;
        }
        const field = fields[i] as { d: Decoder; opt?: boolean };
        const r = field.d(q, l, i === fields.length - 1 ? false : field.opt === true);
        if (r === ABSENT) continue;
        l -= r - q;
        q = r;
      }
      if (eoc) {
        if (!this.eoc(q, l)) return fail();
        q += 2;
      }
      if (!h.indefinite && l !== 0) return fail();
      for (; i < fields.length; i++) if (fields[i]?.opt !== true) return fail();
      return q;
    };
  }

  /** SEQUENCE OF / SET OF `item` (the outer tag's constructed bit is not checked, as OpenSSL does not). */
  list(item: Decoder, tag: number, cls = UNIVERSAL): Decoder {
    return (p, len, opt) => {
      const h = this.header(p, len, tag, cls, opt);
      if (h === ABSENT) return ABSENT;
      let q = h.content;
      let l = h.length;
      let eoc = h.indefinite;
      while (l > 0) {
        if (this.eoc(q, l)) {
          if (!eoc) return fail();
          q += 2;
          l -= 2;
          eoc = false;
          break;
        }
        const r = item(q, l, false);
        if (r === ABSENT) return fail();
        l -= r - q;
        q = r;
      }
      if (eoc) return fail();
      return q;
    };
  }

  /** An EXPLICIT context tag around `inner`. */
  explicit(tag: number, inner: Decoder): Decoder {
    return (p, len, opt) => {
      const h = this.header(p, len, tag, CONTEXT, opt);
      if (h === ABSENT) return ABSENT;
      if (!h.constructed) return fail();
      const r = inner(h.content, h.length, false);
      if (r === ABSENT) return fail();
      const l = h.length - (r - h.content);
      if (h.indefinite) return this.eoc(r, l) ? r + 2 : fail();
      return l === 0 ? r : fail();
    };
  }

  /** A primitive of universal type `utype`, IMPLICIT [tag] when tag >= 0 (asn1_d2i_ex_primitive). */
  primitive(utype: number, tag = -1, cls = UNIVERSAL, check?: (utype: number, content: Uint8Array) => void): Decoder {
    return (p, len, opt) => this.typed(p, len, utype, tag, cls, opt, check);
  }

  private typed(
    p: number,
    len: number,
    utype: number,
    tag: number,
    cls: number,
    opt: boolean,
    check?: (utype: number, content: Uint8Array) => void,
  ): number {
    const h = tag === -1 ? this.header(p, len, utype, UNIVERSAL, opt) : this.header(p, len, tag, cls, opt);
    if (h === ABSENT) return ABSENT;
    if (utype === T_SEQUENCE || utype === T_SET || utype === T_OTHER) {
      if (utype !== T_OTHER && !h.constructed) return fail();
      return h.indefinite ? this.findEnd(h.content, h.length) : h.content + h.length;
    }
    let content: Uint8Array;
    let end: number;
    if (h.constructed) {
      if ([T_NULL, T_BOOLEAN, T_OBJECT, T_INTEGER, T_ENUMERATED].includes(utype)) return fail();
      const parts: number[] = [];
      end = this.collect(h.content, h.length, h.indefinite, parts, 0);
      content = Uint8Array.from(parts);
    } else {
      content = this.b.subarray(h.content, h.content + h.length);
      end = h.content + h.length;
    }
    contentCheck(utype, content);
    check?.(utype, content);
    return end;
  }

  /** ANY: the type is the tag's (asn1_d2i_ex_primitive, V_ASN1_ANY). */
  any(): Decoder {
    return (p, len, opt) => {
      if (opt) return fail(); // ASN1_R_ILLEGAL_OPTIONAL_ANY
      const h = this.header(p, len, -1, UNIVERSAL, false);
      if (h === ABSENT) return fail();
      // A tag that is not universal is V_ASN1_OTHER, whose negative value checks no tag.
      return this.typed(p, len, h.cls !== UNIVERSAL ? T_OTHER : h.tag, -1, UNIVERSAL, false);
    };
  }

  /** A CHOICE of universal string types (ASN1_ITYPE_MSTRING) allowed by `mask`. */
  mstring(mask: number, check?: (utype: number, content: Uint8Array) => void): Decoder {
    return (p, len, opt) => {
      const h = this.header(p, len, -1, UNIVERSAL, true);
      if (h === ABSENT) return fail();
      if (h.cls !== UNIVERSAL || (tag2bit(h.tag) & mask) === 0) return opt ? ABSENT : fail();
      return this.typed(p, len, h.tag, -1, UNIVERSAL, false, check);
    };
  }

  /** asn1_find_end for indefinite-length content: past as many end-of-contents as were opened. */
  private findEnd(p: number, len: number): number {
    let expected = 1;
    let q = p;
    let l = len;
    while (l > 0) {
      if (this.eoc(q, l)) {
        expected--;
        if (expected === 0) break;
        q += 2;
        l -= 2;
        continue;
      }
      const start = q;
      const h = this.header(q, l, -1, UNIVERSAL, false);
      if (h === ABSENT) return fail();
      if (h.indefinite) {
        expected++;
        q = h.content;
      } else q = h.content + h.length;
      l -= q - start;
    }
    if (expected !== 0) return fail();
    return q + 2;
  }

  /** asn1_collect: the content of a constructed (BER) string, at most 5 levels deep. */
  private collect(p: number, len: number, indefinite: boolean, out: number[], depth: number): number {
    let q = p;
    let l = len;
    let inf = indefinite;
    while (l > 0) {
      const start = q;
      if (this.eoc(q, l)) {
        if (!inf) return fail();
        q += 2;
        inf = false;
        break;
      }
      const h = this.header(q, l, -1, UNIVERSAL, false);
      if (h === ABSENT) return fail();
      if (h.constructed) {
        if (depth >= 5) return fail();
        q = this.collect(h.content, h.length, h.indefinite, out, depth + 1);
      } else {
        for (let i = 0; i < h.length; i++) out.push(this.at(h.content + i));
        q = h.content + h.length;
      }
      l -= q - start;
    }
    if (inf) return fail();
    return q;
  }
}

/** asn1_ex_c2i's checks on a primitive's content by its type. */
function contentCheck(utype: number, c: Uint8Array): void {
  switch (utype) {
    case T_OBJECT:
      if (c.length === 0 || (c[c.length - 1] as number) & 0x80) fail();
      for (let i = 0; i < c.length; i++) if (c[i] === 0x80 && (i === 0 || !((c[i - 1] as number) & 0x80))) fail();
      return;
    case T_NULL:
      if (c.length !== 0) fail();
      return;
    case T_BOOLEAN:
      if (c.length !== 1) fail();
      return;
    case T_BIT_STRING:
      if (c.length < 1 || (c[0] as number) > 7) fail();
      return;
    case T_INTEGER:
    case T_ENUMERATED: {
      // c2i_ibuf: no empty content, no padding byte the next byte's sign bit makes redundant
      if (c.length === 0) fail();
      if (c.length === 1) return;
      const neg = (c[0] as number) & 0x80;
      let pad = 0;
      if (c[0] === 0) pad = 1;
      else if (c[0] === 0xff) for (let i = 1; i < c.length; i++) pad |= c[i] as number;
      if (pad !== 0 && neg === ((c[1] as number) & 0x80)) fail();
      return;
    }
    default:
      if (utype === T_BMPSTRING && c.length & 1) fail();
      if (utype === T_UNIVERSALSTRING && c.length & 3) fail();
      // OpenSSL 3.5 (Node 24, the image the webhook ships in) refuses a time too short to be one; 3.0 (Node 20) reads
      // it. One verdict whatever runs the library: the stricter, which is also what the engine can load as a CA there.
      if (utype === T_GENERALIZEDTIME && c.length < 15) fail();
      if (utype === T_UTCTIME && c.length < 13) fail();
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const isScalar = (v: number): boolean => v <= 0x10ffff && (v < 0xd800 || v > 0xdfff);

/** x509_name_canon's ASN1_STRING_to_UTF8: a Name's string value must be convertible to UTF-8. */
function canonCheck(utype: number, c: Uint8Array): void {
  if ((tag2bit(utype) & CANON_MASK) === 0) return;
  if (utype === T_UTF8STRING) {
    try {
      utf8.decode(c);
    } catch {
      fail();
    }
  } else if (utype === T_BMPSTRING) {
    for (let i = 0; i < c.length; i += 2) if (!isScalar(((c[i] as number) << 8) | (c[i + 1] as number))) fail();
  } else if (utype === T_UNIVERSALSTRING) {
    for (let i = 0; i < c.length; i += 4) {
      const v =
        (c[i] as number) * 0x1000000 +
        (((c[i + 1] as number) << 16) | ((c[i + 2] as number) << 8) | (c[i + 3] as number));
      if (!isScalar(v)) fail();
    }
  }
}

/** d2i_X509_AUX: a Certificate, then (when bytes follow) X509_CERT_AUX, whatever follows that. */
function readCertificate(der: Uint8Array): void {
  const d = new Der(der);
  const object = d.primitive(T_OBJECT);
  const integer = d.primitive(T_INTEGER);
  const bitString = d.primitive(T_BIT_STRING);
  const algorithm = d.sequence([{ d: object }, { d: d.any(), opt: true }]);
  const nameEntry = d.sequence([{ d: object }, { d: d.mstring(NAME_VALUE_MASK, canonCheck) }]);
  const name = d.list(d.list(nameEntry, T_SET), T_SEQUENCE);
  const time = d.mstring(TIME_MASK);
  const extension = d.sequence([
    { d: object },
    { d: d.primitive(T_BOOLEAN), opt: true },
    { d: d.primitive(T_OCTET_STRING) },
  ]);
  const tbs = d.sequence([
    { d: d.explicit(0, integer), opt: true },
    { d: integer },
    { d: algorithm },
    { d: name },
    { d: d.sequence([{ d: time }, { d: time }]) },
    { d: name },
    { d: d.sequence([{ d: algorithm }, { d: bitString }]) },
    { d: d.primitive(T_BIT_STRING, 1, CONTEXT), opt: true },
    { d: d.primitive(T_BIT_STRING, 2, CONTEXT), opt: true },
    { d: d.explicit(3, d.list(extension, T_SEQUENCE)), opt: true },
  ]);
  const certificate = d.sequence([{ d: tbs }, { d: algorithm }, { d: bitString }]);
  const end = certificate(0, der.length, false);
  if (end < der.length) {
    const aux = d.sequence([
      { d: d.list(object, T_SEQUENCE), opt: true },
      { d: d.list(object, 0, CONTEXT), opt: true },
      { d: d.primitive(T_UTF8STRING), opt: true },
      { d: d.primitive(T_OCTET_STRING), opt: true },
      { d: d.list(algorithm, 1, CONTEXT), opt: true },
    ]);
    aux(end, der.length - end, false);
  }
}

/** Whether `block` (one BEGIN ... END CERTIFICATE block of a bundle) holds a certificate node:crypto would read. */
export function isX509CertificatePem(block: string): boolean {
  try {
    readCertificate(pemCertificateDer(block));
    return true;
  } catch {
    return false; // NotCertificate; anything else would be a bug here, and validation never throws
  }
}
