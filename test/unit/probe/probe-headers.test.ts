// The httpGet request headers as the kubelet's newProbeRequest and Go's Request.write leave them: canonical names,
// values in order, the first Host, one User-Agent, no Accept when the first given is empty, Go's refusals.
import { expect } from 'chai';
import {
  canonicalHeaderKey,
  headerLines,
  invalidHeader,
  probeHeaders,
} from '../../../packages/probe/src/http-probe.js';
import { USER_AGENT } from '../../../packages/probe/src/index.js';

describe("httpGet headers as Go's net/http writes them", () => {
  it('canonicalises names as textproto does, and leaves a name that is not a token as it is', () => {
    expect(canonicalHeaderKey('x-custom-HEADER')).to.equal('X-Custom-Header');
    expect(canonicalHeaderKey('www-authenticate')).to.equal('Www-Authenticate');
    expect(canonicalHeaderKey('bad name')).to.equal('bad name');
  });

  it('adds our User-Agent and Accept */* when none is given, Host empty (the URL host is sent)', () => {
    const h = probeHeaders([]);
    expect(h.host).to.equal('');
    expect(headerLines(h.fields)).to.deep.equal([
      ['User-Agent', [USER_AGENT]],
      ['Accept', ['*/*']],
    ]);
  });

  it('takes the first Host, writes one User-Agent (the first), drops every Accept when the first is empty', () => {
    const h = probeHeaders([
      { name: 'host', value: 'a.example' },
      { name: 'Host', value: 'b.example' },
      { name: 'User-Agent', value: 'one/1' },
      { name: 'user-agent', value: 'two/2' },
      { name: 'Accept', value: '' },
      { name: 'accept', value: 'text/html' },
      { name: 'Content-Length', value: '5' },
      { name: 'b-header', value: ' spaced\t' },
      { name: 'a-header', value: 'x' },
    ]);
    expect(h.host).to.equal('a.example');
    expect(headerLines(h.fields)).to.deep.equal([
      ['User-Agent', ['one/1']],
      ['A-Header', ['x']],
      ['B-Header', ['spaced']],
    ]);
  });

  it('writes no User-Agent when the first given is empty', () => {
    const lines = headerLines(probeHeaders([{ name: 'User-Agent', value: '' }]).fields);
    expect(lines.some(([n]) => n === 'User-Agent')).to.equal(false);
  });

  it("refuses what Go's transport refuses, in its words", () => {
    expect(invalidHeader(probeHeaders([{ name: 'X-A', value: 'a\nb' }]).fields)).to.equal(
      'net/http: invalid header field value for "X-A"',
    );
    expect(invalidHeader(probeHeaders([{ name: 'X A', value: 'v' }]).fields)).to.equal(
      'net/http: invalid header field name "X A"',
    );
    expect(invalidHeader(probeHeaders([{ name: 'X-A', value: 'tab\tok' }]).fields)).to.equal(undefined);
  });
});
