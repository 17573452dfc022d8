// go-response-head.ts against Go's own client: each expected text is what Go 1.26's http.Client returned (after
// `net/http: HTTP/1.x transport connection broken: `) for the same bytes from a raw socket, in a throwaway program.
import { expect } from 'chai';
import { goResponseHeadError } from '../../../packages/probe/src/go-response-head.js';

const CL2 = 'Content-Length: 2\r\n\r\nok';
const cases: [string, string, string | undefined][] = [
  ['a status code that is not a number', `HTTP/1.1 abc OK\r\n${CL2}`, 'malformed HTTP status code "abc"'],
  ['a four-digit status code', `HTTP/1.1 1000 OK\r\n${CL2}`, 'malformed HTTP status code "1000"'],
  ['CR alone as line end', 'HTTP/1.1 200 OK\rContent-Length: 2\r\r\nok', 'malformed MIME header: missing colon: "ok"'],
  [
    'a control byte in a value',
    `HTTP/1.1 200 OK\r\nX-A: a\x01b\r\n${CL2}`,
    'malformed MIME header line: "X-A: a\\x01b"',
  ],
  [
    'two different Content-Lengths',
    'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok',
    'http: message cannot contain multiple Content-Length headers; got ["2" "3"]',
  ],
  ['a lower-case version', `http/1.1 200 OK\r\n${CL2}`, 'malformed HTTP version "http/1.1"'],
  [
    'Transfer-Encoding gzip',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nok',
    'unsupported transfer encoding: "gzip"',
  ],
  ['no status line at all', 'hello\r\n\r\n', 'malformed HTTP response "hello"'],
  ['closed in a header', 'HTTP/1.1 200 OK\r\nContent-Le', 'malformed MIME header: missing colon: "Content-Le"'],
  ['closed in the status line', 'HTTP/1.1 20', 'malformed HTTP status code "20"'],
  ['closed after the status line', 'HTTP/1.1 200 OK\r\n', 'unexpected EOF'],
  ['a negative Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nok', 'bad Content-Length "-1"'],
  ['a header line without a colon', `HTTP/1.1 200 OK\r\nXA\r\n${CL2}`, 'malformed MIME header: missing colon: "XA"'],
  ['a bad byte in a name', `HTTP/1.1 200 OK\r\nX(A: b\r\n${CL2}`, 'malformed MIME header line: "X(A: b"'],
  ['HTTP/1.2, accepted', `HTTP/1.2 200 OK\r\n${CL2}`, undefined],
  ['a space before the colon, accepted', `HTTP/1.1 200 OK\r\nX-A : b\r\n${CL2}`, undefined],
  ['obs-fold, accepted', `HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\n${CL2}`, undefined],
  ['bare LF, accepted', 'HTTP/1.1 200 OK\nContent-Length: 2\n\nok', undefined],
];

describe("Go's ReadResponse errors for a response head", () => {
  for (const [what, bytes, go] of cases)
    it(`${what}: ${go ?? 'no error'}`, () => {
      expect(goResponseHeadError(bytes, true)).to.equal(go);
    });

  it('waits for more bytes while the connection is open', () => {
    expect(goResponseHeadError('HTTP/1.1 20', false)).to.equal(undefined);
  });
});
