#!/usr/bin/env node
// `npm test`: every suite, in this order, each as `npm run <suite>`; stops at the first that fails, and then says in one
// line which suite failed, the command that reruns only it, and the suites that were not run (issue 38: a newcomer
// saw a red unit suite and nothing about what else there was). The list of suites is scripts/suites.mjs.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { SUITES } from './suites.mjs';

const USAGE = `Usage: npm test [-- options]   (node scripts/test-all.mjs [options])

Runs every suite in order, each as \`npm run <suite>\`: ${SUITES.join(', ')}.
Stops at the first that fails and prints which, how to rerun only it, and what was not run.

Options:
  --from SUITE   start at this suite (after fixing one, go on from it), e.g. --from test:e2e
  --list         print the suites in order and exit
  -h, --help     this text`;

const { values: opts } = parseArgs({
  options: {
    from: { type: 'string' },
    list: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
if (opts.list) {
  console.log(SUITES.join('\n'));
  process.exit(0);
}
let start = 0;
if (opts.from !== undefined) {
  start = SUITES.indexOf(opts.from);
  if (start < 0) {
    console.error(`npm test: --from ${opts.from}: not a suite; give one of ${SUITES.join(', ')}`);
    process.exit(2);
  }
}

const minutes = (ms) => `${(ms / 60_000).toFixed(1)} min`;
const startedAll = performance.now();
const took = [];
for (let i = start; i < SUITES.length; i++) {
  const suite = SUITES[i];
  const started = performance.now();
  const r = spawnSync('npm', ['run', suite], { stdio: 'inherit' });
  took.push(`${suite} ${minutes(performance.now() - started)}`);
  if (r.status !== 0) {
    const why = r.error !== undefined ? r.error.message : r.signal !== null ? `signal ${r.signal}` : `exit ${r.status}`;
    const rest = SUITES.slice(i + 1);
    console.error(
      `\nnpm test: ${suite} failed (${why}); rerun only it: npm run ${suite}; ` +
        (rest.length === 0
          ? 'it was the last suite.'
          : `not run: ${rest.join(', ')} (after a fix, go on with: npm test -- --from ${suite}).`),
    );
    process.exit(r.status === null || r.status === 0 ? 1 : r.status);
  }
}
console.log(
  `\nnpm test: ${SUITES.length - start} suite(s) passed in ${minutes(performance.now() - startedAll)} (${took.join(', ')})`,
);
