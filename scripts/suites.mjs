// The suites `npm test` runs, in order, each an npm script of package.json (scripts/test-all.mjs runs them; its test
// checks each is one). The one list: add a suite here and to package.json's scripts.
export const SUITES = [
  'typecheck',
  'lint',
  'test:unit',
  'test:integration',
  'test:browser',
  'test:e2e',
  'test:node24',
  'test:helm',
  'test:monitoring',
  'test:node',
  'test:oracle',
];
