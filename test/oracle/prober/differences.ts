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
  'hostile: a 256 KiB header block': {
    why: "kept on purpose: the kubelet's Go client reads up to 10 MiB of response headers (Transport.MaxResponseHeaderBytes) and passes; ours stops at 64 KiB (MAX_RESPONSE_HEADER_BYTES) and fails. Memory per probe is a budget in bytes: 512 probes at once x 10 MiB is 5 GiB from whoever answers, x 64 KiB is 32 MiB (docs/probe.md, differences kept on purpose; the 32 KiB row agrees)",
    kubelet: {
      verdict: 'success',
    },
    ours: {
      verdict: 'failure',
      message: 'Get "http://127.0.0.1:PORT/": net/http: server response headers exceeded 65536 bytes; aborted',
    },
  },
  'hostile: reset in the body (Content-Length 100, 10 sent)': {
    why: 'kept on purpose: both are errored probes (the body cannot be read, retried, not counted); the kubelet says the connection was reset, ours says unexpected EOF: libuv reports a reset that arrives right after the last bytes as an end of the stream, so Node cannot tell it from a close (docs/probe.md, differences kept on purpose)',
    kubelet: {
      message: 'read tcp 127.0.0.1:PORT->127.0.0.1:PORT: read: connection reset by peer',
    },
    ours: {
      message: 'unexpected EOF',
    },
  },
  'hostile: 1xx responses past the header bound': {
    why: 'kept on purpose, the same bound as the 256 KiB header block: Go 1.26 counts the heads of 1xx responses with the final one against Transport.MaxResponseHeaderBytes (10 MiB) and passes 72 KiB of them; ours counts them together against MAX_RESPONSE_HEADER_BYTES (64 KiB) and fails (docs/probe.md, differences kept on purpose; the six-103 row agrees)',
    kubelet: {
      verdict: 'success',
    },
    ours: {
      verdict: 'failure',
      message: 'Get "http://127.0.0.1:PORT/": net/http: server response headers exceeded 65536 bytes; aborted',
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
    why: "kept on purpose: both fail; the kubelet says `http: server gave HTTP response to HTTPS client` because Go looks at the bytes of the first record, which OpenSSL does not show Node (it says `wrong version number`); ours uses Go's words for any other non-TLS answer, `tls: first record does not look like a TLS handshake` (docs/probe.md, differences kept on purpose)",
    kubelet: {
      message: 'Get "https://127.0.0.1:PORT/": http: server gave HTTP response to HTTPS client',
    },
    ours: {
      message: 'Get "https://127.0.0.1:PORT/": tls: first record does not look like a TLS handshake',
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
