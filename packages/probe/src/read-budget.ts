// The apiServer probe's read budget: how much one probe may read from a member and decode, in one place. A member
// is untrusted (a Cluster's apiEndpoint is whatever its creator wrote), and the reconciler runs hundreds of probes at
// once, so each is bounded in bytes and objects, not only in time. Pure data; documented in docs/probe.md.

const KiB = 1024;
const MiB = 1024 * KiB;

export interface ReadBudget {
  /** The `limit` of every list request; a page holding more items than that is refused, not decoded. */
  readonly itemsPerPage: number;
  /** Pages followed per list (`continue`): 400 x 500 = 200,000 objects, above Kubernetes' 150,000 pods a cluster. */
  readonly maxPages: number;
  /** Bytes of one object (one Node or Pod in a list); the most that is ever held and decoded at once. */
  readonly maxObjectBytes: number;
  /** Bytes of one response body. */
  readonly maxResponseBytes: number;
  /** Bytes of all response bodies of one probe together. */
  readonly maxProbeBytes: number;
  /** Bytes of the health response (`/readyz`) read; its body is never shown, only its status. */
  readonly maxHealthBodyBytes: number;
}

export const API_SERVER_READ_BUDGET: ReadBudget = Object.freeze({
  itemsPerPage: 500,
  maxPages: 400,
  // etcd refuses a request above 1.5 MiB by default, so no stored object is larger.
  maxObjectBytes: 2 * MiB,
  maxResponseBytes: 32 * MiB,
  maxProbeBytes: 128 * MiB,
  maxHealthBodyBytes: 10 * KiB,
});

/** Thrown when a bound of the budget is hit; the message names the bound and its limit. */
export class ReadBudgetExceeded extends Error {
  constructor(
    readonly bound: keyof ReadBudget,
    what: string,
  ) {
    super(`${what}; read budget ${bound} exceeded`);
    this.name = 'ReadBudgetExceeded';
  }
}
