// `cluster-probe migrate`: not built yet (see the open issues).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('migrate')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('cluster-probe migrate: not implemented yet\n');
      process.exitCode = 2;
    });
}
