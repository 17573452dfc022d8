// The CERTIFICATE blocks of a PEM bundle, found by scanning: the schema library (a probe's caBundle) and the probe
// engine (the CA it connects with) read bundles the same way. A lazy `BEGIN[\s\S]*?END` pattern scanned to the end of
// the text from every BEGIN, so a bundle of BEGINs without an END took quadratic time (1 MB: 24 s). Pure.

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';

/** Each `BEGIN ... END` block in order (as `match(/BEGIN[\s\S]*?END/g)` gives them), or null when there is none. */
export function pemCertificateBlocks(pem: string): string[] | null {
  const blocks: string[] = [];
  let from = 0;
  for (;;) {
    const begin = pem.indexOf(BEGIN, from);
    if (begin < 0) break;
    const end = pem.indexOf(END, begin + BEGIN.length);
    if (end < 0) break; // no END after this BEGIN, so none after a later one either
    blocks.push(pem.slice(begin, end + END.length));
    from = end + END.length;
  }
  return blocks.length === 0 ? null : blocks;
}
