// Types of build.mjs, for the browser test (TypeScript) that builds and serves the playground the same way.
import type { Server } from 'node:http';
import type { Message } from 'esbuild';

export declare const PLAYGROUND_DIR: string;
export declare const REPO_ROOT: string;
export declare const DEFAULT_OUT_DIR: string;

export interface PlaygroundBuild {
  outDir: string;
  /** The path of main.js. */
  bundle: string;
  /** main.js, raw and gzip (level 9) bytes. */
  bytes: number;
  gzipBytes: number;
  /** Every module esbuild put in the bundle, relative to the repository. */
  inputs: string[];
  warnings: Message[];
}

export declare function buildPlayground(outDir?: string): Promise<PlaygroundBuild>;

export declare function servePlayground(
  dir: string,
  options?: { host?: string; port?: number },
): Promise<{ server: Server; url: string }>;
