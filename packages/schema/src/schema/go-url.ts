// Go's net/url Parse, as far as Karmada's apiEndpoint and proxyURL checks need it: the error it returns, else the
// scheme and the Host. WHATWG URL parsing (node's URL) accepts and refuses other strings, so Karmada's outcomes are
// emulated here, in Go's order. Pure: no I/O, no import.

/** Go's stringContainsCTLByte: a byte below 0x20, or 0x7f. */
function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

const validOptionalPort = (colonPort: string): boolean => colonPort === '' || /^:[0-9]*$/.test(colonPort);

/**
 * What Go's url.Parse makes of `raw`, as far as Karmada's checks need it: the error it returns (the text after
 * `parse "<raw>": `), else whether it has a scheme and its Host (with the port, "" when there is no authority).
 * The checks are Go's net/url parse, getScheme, parseAuthority and parseHost, in their order.
 */
export function goURLParse(raw: string): { problem: string } | { scheme: string; host: string } {
  if (hasControlCharacter(raw)) return { problem: 'net/url: invalid control character in URL' };
  const withoutFragment = raw.split('#', 1)[0] ?? '';
  if (withoutFragment.startsWith(':')) return { problem: 'missing protocol scheme' };
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*(?=:)/.exec(withoutFragment)?.[0] ?? '';
  let rest = scheme === '' ? withoutFragment : withoutFragment.slice(scheme.length + 1);
  rest =
    rest.endsWith('?') && rest.indexOf('?') === rest.length - 1 ? rest.slice(0, -1) : (rest.split('?', 1)[0] ?? '');
  if (!rest.startsWith('/')) {
    if (scheme === '' && (rest.split('/', 1)[0] ?? '').includes(':'))
      return { problem: 'first path segment in URL cannot contain colon' };
    return { scheme, host: '' };
  }
  if ((scheme === '' && rest.startsWith('///')) || !rest.startsWith('//')) return { scheme, host: '' };
  const authority = rest.slice(2).split('/', 1)[0] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) return { problem: "missing ']' in host" };
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) return { problem: `invalid port ${JSON.stringify(colonPort)} after host` };
  } else if (host.includes(':')) {
    const colonPort = host.slice(host.lastIndexOf(':'));
    if (!validOptionalPort(colonPort)) return { problem: `invalid port ${JSON.stringify(colonPort)} after host` };
  }
  return { scheme, host };
}
