// The one reading of a Cluster's `spec.apiEndpoint` as a URL and of the host a probe without `host` goes to: the
// schema library (Karmada's endpoint rules, validateProbe) and the probe engine (the default host) all ask here, so
// admission and connect time cannot pick different hosts from the same endpoint. Pure: no I/O.

/**
 * The parts of a WHATWG URL this package reads. Declared here rather than as the global `URL` so that the package's
 * types need neither the DOM library nor Node's types in a consumer's compiler options (a `URL` is one).
 */
export interface EndpointUrl {
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}

/** The endpoint as a WHATWG URL (what Node dials), or undefined when it is not one. */
export function parseEndpoint(endpoint: string): EndpointUrl | undefined {
  try {
    return new URL(endpoint);
  } catch {
    return undefined;
  }
}

/** A URL's host name without the brackets of an IPv6 literal (`fd00::1`, not `[fd00::1]`); '' when it has none. */
export function hostOfUrl(url: EndpointUrl): string {
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
