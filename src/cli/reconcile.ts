// `cluster-probe reconcile`: not built yet (see the open issues).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('reconcile')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('cluster-probe reconcile: not implemented yet\n');
      process.exitCode = 2;
    });
}
