// Resolves a probe's port, a number or an IANA service name, from a small embedded table of well-known services.
// A name not in the table is a configuration error, not a probe failure. Depends on nothing.

/** Well-known IANA service names (Service Name and Transport Protocol Port Number Registry), TCP. */
export const IANA_SERVICE_PORTS: Readonly<Record<string, number>> = Object.freeze({
  ftp: 21,
  ssh: 22,
  telnet: 23,
  smtp: 25,
  domain: 53,
  http: 80,
  www: 80,
  'www-http': 80,
  kerberos: 88,
  pop3: 110,
  ntp: 123,
  imap: 143,
  snmp: 161,
  ldap: 389,
  https: 443,
  submission: 587,
  ldaps: 636,
  imaps: 993,
  pop3s: 995,
  'etcd-client': 2379,
  'etcd-server': 2380,
  mysql: 3306,
  postgresql: 5432,
  amqp: 5672,
  redis: 6379,
  'http-alt': 8080,
  'pcsync-https': 8443,
  mongodb: 27017,
});

/** IANA_SVC_NAME as Kubernetes validates it: 1-15 lowercase letters, digits, '-', at least one letter, no '--'. */
export function isIanaServiceName(name: string): boolean {
  return (
    name.length >= 1 &&
    name.length <= 15 &&
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) &&
    /[a-z]/.test(name) &&
    !name.includes('--')
  );
}

export type PortResolution = { ok: true; port: number } | { ok: false; message: string };

/** The numeric port of `port`, or why it cannot be had. `field` names the place for the message. */
export function resolvePort(
  port: number | string | undefined,
  field: string,
  extra?: Readonly<Record<string, number>>,
): PortResolution {
  if (typeof port === 'number') {
    if (Number.isInteger(port) && port >= 1 && port <= 65535) return { ok: true, port };
    return { ok: false, message: `${field}: Invalid value: ${port}: must be between 1 and 65535, inclusive` };
  }
  if (typeof port !== 'string' || port === '') return { ok: false, message: `${field}: Required value` };
  if (/^[0-9]+$/.test(port)) return resolvePort(Number(port), field, extra);
  if (!isIanaServiceName(port))
    return { ok: false, message: `${field}: Invalid value: "${port}": must be a port number or an IANA service name` };
  const found = extra?.[port] ?? IANA_SERVICE_PORTS[port];
  if (found === undefined)
    return {
      ok: false,
      message: `${field}: named port "${port}" cannot be resolved: not a known service name; use a port number`,
    };
  return { ok: true, port: found };
}
