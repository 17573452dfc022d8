// `cluster-probe dev up` with flags that do not go together: a usage error that says which, exit 2. Thrown from the
// action as commander's InvalidArgumentError, these ended the run with exit 2 and not a word.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../src/cli/bin.ts', import.meta.url));

function devUp(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', BIN, 'dev', 'up', ...args], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe('cluster-probe dev up: flags that do not go together', function () {
  this.timeout(60_000);
  const rows: [string[], string][] = [
    [['--host'], '--members, --admission and --host go with --karmada'],
    [['--admission'], '--members, --admission and --host go with --karmada'],
    [['--karmada', '--host', '--admission'], '--host runs stock Karmada; --admission goes without it'],
    [['--karmada', '--probe-location', 'field'], '--probe-location field cannot work with --karmada'],
  ];
  for (const [args, message] of rows)
    it(`dev up ${args.join(' ')}: says "${message}", exit 2, starts nothing`, () => {
      const r = devUp(args);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.include(`error: ${message}`);
    });
});
