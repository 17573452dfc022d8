// The slice of autocannon 8's API the webhook bench uses (the package ships no types).
declare module 'autocannon' {
  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    overallRate?: number;
    timeout?: number;
    tlsOptions?: Record<string, unknown>;
  }
  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    duration: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
