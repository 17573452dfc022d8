// `npx tsx scripts/generate-monitoring.ts`: rewrites the alert rules and dashboards generated from
// src/deploy/ (the plain rules file, the chart's PrometheusRule, the dashboard JSON). With --check it exits
// 1 and names the stale files instead (test/monitoring/generated.test.ts does the same).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { monitoringFiles } from '../src/deploy/monitoring.js';

const check = process.argv.includes('--check');
let stale = 0;
for (const [path, content] of Object.entries(monitoringFiles())) {
  let current: string | undefined;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === content) continue;
  if (check) {
    console.error(`stale: ${path} (run \`npx tsx scripts/generate-monitoring.ts\`)`);
    stale++;
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    console.log(`wrote ${path}`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
