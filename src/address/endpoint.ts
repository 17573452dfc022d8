// The one reading of a Cluster's `spec.apiEndpoint` as a URL and of the host a probe without `host` goes to: the
// schema library (Karmada's endpoint rules, validateProbe) and the probe engine (the default host) all ask here, so
// admission and connect time cannot pick different hosts from the same endpoint. Pure: no I/O.

/** The endpoint as a WHATWG URL (what Node dials), or undefined when it is not one. */
export function parseEndpoint(endpoint: string): URL | undefined {
  try {
    return new URL(endpoint);
  } catch {
    return undefined;
  }
}

/** A URL's host name without the brackets of an IPv6 literal (`fd00::1`, not `[fd00::1]`); '' when it has none. */
export function hostOfUrl(url: URL): string {
  const h = url.hostname;
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

/** The host of an apiEndpoint URL without IPv6 brackets, or undefined when the endpoint is unset, not a URL or hostless. */
export function endpointHost(endpoint: string | undefined): string | undefined {
  if (endpoint === undefined || endpoint === '') return undefined;
  const url = parseEndpoint(endpoint);
  if (url === undefined) return undefined;
  const host = hostOfUrl(url);
  return host === '' ? undefined : host;
}
