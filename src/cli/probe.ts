// `cluster-probe probe`: not built yet (see the open issues).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('probe')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('cluster-probe probe: not implemented yet\n');
      process.exitCode = 2;
    });
}
