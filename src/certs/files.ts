// The file names of a certificate directory (what `cluster-probe certs` writes and `serve --cert-dir` reads, the
// names of a kubernetes.io/tls Secret's keys). Their own module, so reading a pair loads nothing that makes one.
export const CA_CERT_FILE = 'ca.crt';
export const CA_KEY_FILE = 'ca.key';
export const TLS_CERT_FILE = 'tls.crt';
export const TLS_KEY_FILE = 'tls.key';
