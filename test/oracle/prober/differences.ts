// Where our engine and the kubelet's prober (test/oracle/kubernetes/prober, k8s.io/kubernetes v1.35.4) differ on a
// row of cases.ts, with what each side does and why. Only the aspects that differ are listed (verdict, message,
// warnings, received; see judge.ts), each side's exact value after normalise(): prober.test.ts asserts that the row
// still differs in exactly these, so a fix or a regression on either side makes it fail, and the entry is then
// removed or re-recorded (`npx tsx test/oracle/prober/figures.ts --write` rewrites the entries, keeping each `why`).
import type { RowDifference } from './judge.js';

export interface ListedDifference extends RowDifference {
  /** The kubelet's behaviour against ours in a sentence, and why ours differs: on purpose, or a bug being fixed. */
  why: string;
}

/** Reasons shared by several rows. */
export const WHY = {
  tlsVerified:
    'kept on purpose (docs/probe.md, httpGet, "Stricter than the kubelet"): the kubelet never verifies HTTPS (InsecureSkipVerify); ours verifies against caBundle or the system roots unless insecureSkipTLSVerify opts out, because a Cluster is probed across networks where an unverified endpoint is whoever answers. Received: nothing, as the handshake fails before the request',
  unresolvedPort:
    'kept on purpose: both find out only when probing (admission accepts any IANA_SVC_NAME, as Kubernetes does). The kubelet has an errored probe (the container has no such port; retried 3 times, thrown away by its worker: the Pod is neither restarted nor marked); ours has a configuration error (result error, no code: Healthy=Unknown, no taint), as a Cluster has no container ports and names resolve against the IANA table (docs/probe.md, "Named ports"). Neither moves the verdict; ours says why',
  portZero:
    "kept on purpose: port 0 is refused at admission on both sides (Kubernetes: must be between 1 and 65535); handed to the engine anyway (the library API), ours reports the configuration error at once where the kubelet's prober has an errored probe (retried 3 times, thrown away by its worker)",
} as const;

export const PROBER_DIFFERENCES: Readonly<Record<string, ListedDifference>> = {
  // entries: written by figures.ts --write
  'hostile: two equal Content-Length headers': {
    why: "bug, being fixed (issue 29, HTTP/1.x leniency): Go accepts Content-Length repeated with one value (RFC 9110 section 8.6 allows it) and the kubelet passes; Node's parser refuses it and ours fails",
    kubelet: {
      verdict: 'success',
    },
    ours: {
      verdict: 'failure',
      message: 'Get "http://127.0.0.1:PORT/": Parse Error: Duplicate Content-Length (HPE_UNEXPECTED_CONTENT_LENGTH)',
    },
  },
  'hostile: a 256 KiB header block': {
    why: "undecided (issue 29): the kubelet's Go client reads up to 10 MiB of response headers (Transport.MaxResponseHeaderBytes) and passes; ours stops at its own limit and fails. Following Go means holding up to 10 MiB per probe for whoever answers; a bound below it, stated in docs/probe.md, is the candidate to keep (the 32 KiB row agrees)",
    kubelet: {
      verdict: 'success',
    },
    ours: {
      verdict: 'failure',
      message: 'Get "http://127.0.0.1:PORT/": net/http: server response headers exceeded 65536 bytes; aborted',
    },
  },
  'hostile: a space in a header name': {
    why: "bug, being fixed (issue 29, HTTP/1.x leniency): Go's client accepts a response header name with a space and the kubelet passes; Node's parser refuses it and ours fails",
    kubelet: {
      verdict: 'success',
    },
    ours: {
      verdict: 'failure',
      message: 'Get "http://127.0.0.1:PORT/": Parse Error: Invalid header token (HPE_INVALID_HEADER_TOKEN)',
    },
  },
  'hostile: reset in the body (Content-Length 100, 10 sent)': {
    why: 'bug, being fixed (issue 29, messages): both are errored probes (the body cannot be read); the kubelet says the connection was reset, ours says unexpected EOF, as it does for a close',
    kubelet: {
      message: 'read tcp 127.0.0.1:PORT->127.0.0.1:PORT: read: connection reset by peer',
    },
    ours: {
      message: 'unexpected EOF',
    },
  },
  'tls: a chain ours cannot verify (no CA given), 200': {
    why: WHY.tlsVerified,
    kubelet: {
      verdict: 'success',
      received: {
        requests: [
          {
            target: '/',
            headers: ['accept: */*', 'connection: close', 'host: 127.0.0.1:PORT', 'user-agent: <default user-agent>'],
          },
        ],
        connections: 0,
        checks: [],
      },
    },
    ours: {
      verdict: 'failure',
      message:
        'Get "https://127.0.0.1:PORT/": tls: failed to verify certificate: x509: certificate signed by unknown authority',
      received: {
        requests: [],
        connections: 0,
        checks: [],
      },
    },
  },
  'tls: an expired certificate (ours given the CA)': {
    why: WHY.tlsVerified,
    kubelet: {
      verdict: 'success',
      received: {
        requests: [
          {
            target: '/',
            headers: ['accept: */*', 'connection: close', 'host: 127.0.0.1:PORT', 'user-agent: <default user-agent>'],
          },
        ],
        connections: 0,
        checks: [],
      },
    },
    ours: {
      verdict: 'failure',
      message:
        'Get "https://127.0.0.1:PORT/": tls: failed to verify certificate: x509: certificate has expired or is not yet valid',
      received: {
        requests: [],
        connections: 0,
        checks: [],
      },
    },
  },
  'tls: HTTPS to a plain HTTP server (it answers 400 to the ClientHello)': {
    why: "bug, being fixed (issue 29, messages): the kubelet says `http: server gave HTTP response to HTTPS client`; ours passes on OpenSSL's error text",
    kubelet: {
      message: 'Get "https://127.0.0.1:PORT/": http: server gave HTTP response to HTTPS client',
    },
    ours: {
      message:
        'Get "https://127.0.0.1:PORT/": THREAD:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:PORT:\n (ERR_SSL_WRONG_VERSION_NUMBER)',
    },
  },
  'tcp: a port name nobody knows': {
    why: WHY.unresolvedPort,
    kubelet: {
      verdict: 'errored',
      message: 'strconv.Atoi: parsing "no-such-port": invalid syntax',
    },
    ours: {
      verdict: 'error',
      message:
        'livenessProbe.tcpSocket.port: named port "no-such-port" cannot be resolved: not a known service name; use a port number',
    },
  },
  'tcp: port 0': {
    why: WHY.portZero,
    kubelet: {
      verdict: 'errored',
      message: 'invalid port number: 0',
    },
    ours: {
      verdict: 'error',
      message: 'livenessProbe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive',
    },
  },
  // end of entries
};
