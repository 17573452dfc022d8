// Runs one probe in a process of its own and reports its result with the memory it took: the peaks of RSS and of the
// V8 heap above their values at the start, sampled every 5 ms. Used by hostile-apiserver.test.ts so
// the memory measured is the probe's alone. Input: the JSON of {probe, ctx} in the HOSTILE_PROBE environment variable.
import { runProbe, type LivenessProbe, type ProbeContext } from '../../../packages/probe/src/index.js';

const { probe, ctx } = JSON.parse(process.env.HOSTILE_PROBE ?? '{}') as { probe: LivenessProbe; ctx: ProbeContext };

// Warm up what a probe loads (http, the parser) so the start line is taken after it, then settle.
await runProbe({ tcpSocket: { host: '127.0.0.1', port: 9 }, timeoutSeconds: 1 });
global.gc?.();
const before = process.memoryUsage();
let rssPeak = before.rss;
let heapPeak = before.heapUsed;
const sample = (): void => {
  const m = process.memoryUsage();
  rssPeak = Math.max(rssPeak, m.rss);
  heapPeak = Math.max(heapPeak, m.heapUsed);
};
const sampler = setInterval(sample, 5);
const started = Date.now();
const result = await runProbe(probe, ctx);
clearInterval(sampler);
sample();
process.stdout.write(
  JSON.stringify({
    result: result.result,
    message: result.message,
    ms: Date.now() - started,
    rssGrowth: rssPeak - before.rss,
    heapGrowth: heapPeak - before.heapUsed,
  }) + '\n',
);
