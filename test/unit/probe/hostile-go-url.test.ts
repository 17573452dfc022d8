// go-url.ts and go-response-head.ts on the longest inputs a hostile member or configuration can hand them: a response
// head of up to 64 KiB (more: a read chunk past it) and a path or Location of any length. They run on the event loop
// that every other probe shares, so each must be linear: the bounds below are seconds for work that takes
// milliseconds, there to catch quadratic behaviour (minutes at these sizes), not to time a fast machine.
import { expect } from 'chai';
import { goReadResponseHead, goResponseHeadError } from '../../../packages/probe/src/go-response-head.js';
import { parseGoUrl, parseReference, probeRequestUrl, requestUri } from '../../../packages/probe/src/go-url.js';

/** Far above the linear cost (tens of ms), far below the quadratic one. */
const LINEAR_MS = 3_000;

function timed<T>(f: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = f();
  return { value, ms: performance.now() - started };
}

describe('Go URL and response-head readers on hostile lengths', function () {
  this.timeout(60_000);

  it('reads a header folded over 64,000 continuation lines in linear time, joined as textproto joins them', () => {
    const head = `HTTP/1.1 200 OK\r\nX-A: a${'\r\n x'.repeat(64_000)}\r\nX-B: \x01\r\n\r\n`;
    const { value, ms } = timed(() => goResponseHeadError(head, false));
    expect(value).to.equal('malformed MIME header line: "X-B: \\x01"');
    expect(ms).to.be.below(LINEAR_MS);
  });

  it('joins continuation lines trimmed, one space each, an empty one included (as Go)', () => {
    const h = goReadResponseHead('HTTP/1.1 200 OK\r\nX-A: a \r\n \t\r\n  b\t \r\n\r\n', false);
    expect(h).to.have.property('status', 200);
    expect((h as { fields: ReadonlyMap<string, readonly string[]> }).fields.get('x-a')).to.deep.equal(['a  b']);
  });

  it('trims a header value of 1 MiB of spaces and tabs in linear time', () => {
    const pad = ' \t'.repeat(512 * 1024);
    const { value, ms } = timed(() => goReadResponseHead(`HTTP/1.1 200 OK\r\nX-A:${pad}a${pad}\r\n\r\n`, false));
    expect((value as { fields: ReadonlyMap<string, readonly string[]> }).fields.get('x-a')).to.deep.equal(['a']);
    expect(ms).to.be.below(LINEAR_MS);
  });

  it('parses and prints a 256 KiB path of characters Go escapes in linear time', () => {
    const { value, ms } = timed(() => requestUri(probeRequestUrl('http', 'h', 80, `/${' !%zz'.repeat(52_000)}`)));
    expect(value.startsWith('/%20%21%25zz')).to.equal(true);
    expect(ms).to.be.below(LINEAR_MS);
  });

  it('resolves a Location of 16,000 segments and as many `..` in linear time', () => {
    const base = parseGoUrl('http://h/a/b');
    const { value, ms } = timed(() => parseReference(base, `/${'a/'.repeat(16_000)}${'../'.repeat(16_000)}x`));
    expect(requestUri(value)).to.equal('/x');
    expect(ms).to.be.below(LINEAR_MS);
  });
});
