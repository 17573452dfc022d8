// `cluster-probe serve`: not built yet (see the open issues).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('serve')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('cluster-probe serve: not implemented yet\n');
      process.exitCode = 2;
    });
}
