// `cluster-probe dev`: not built yet (see the open issues).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('dev')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('cluster-probe dev: not implemented yet\n');
      process.exitCode = 2;
    });
}
