// Keeps the serving certificate fresh: watches the certificate directory (fs.watch, which sees a Secret volume's
// `..data` symlink swap) and polls it, then hands a changed, valid pair to `apply`. A bad pair is logged, the old kept.
import { watch, type FSWatcher } from 'node:fs';
import type { Logger } from 'pino';
import { checkKeyPair, hashPair, readKeyPair, type LoadedKeyPair } from './keypair.js';

export type ReloadResult = 'loaded' | 'unchanged' | 'rejected' | 'missing';

export interface CertificateReloaderOptions {
  dir: string;
  /** Receives every new valid pair (e.g. `server.setSecureContext`). A throw counts as a rejection. */
  apply: (pair: LoadedKeyPair) => void;
  logger: Logger;
  /** Poll period; the watch usually reacts first, the poll covers filesystems where it does not. Default 10 s. */
  pollIntervalMs?: number;
  /** How long to let a burst of file events settle before reading. Default 50 ms. */
  debounceMs?: number;
  onResult?: (result: ReloadResult) => void;
}

export class CertificateReloader {
  private current: LoadedKeyPair | undefined;
  private lastRejectedHash: string | undefined;
  private lastMissingLogged = false;
  private watcher: FSWatcher | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private debounceTimer: NodeJS.Timeout | undefined;
  private running: Promise<ReloadResult> = Promise.resolve('unchanged');
  private stopped = false;

  constructor(private readonly options: CertificateReloaderOptions) {}

  /** Whether a valid pair has been applied. */
  get loaded(): boolean {
    return this.current !== undefined;
  }

  get pair(): LoadedKeyPair | undefined {
    return this.current;
  }

  /** Loads once, then starts watching and polling. Resolves with the first load's result. */
  async start(): Promise<ReloadResult> {
    const first = await this.reload();
    this.startWatching();
    this.pollTimer = setInterval(() => {
      this.startWatching(); // the directory may have appeared since
      void this.reload();
    }, this.options.pollIntervalMs ?? 10_000);
    this.pollTimer.unref();
    return first;
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.close();
    this.watcher = undefined;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
  }

  /** Reads the pair now; serialised, so overlapping triggers never race. */
  reload(): Promise<ReloadResult> {
    this.running = this.running.then(
      () => this.reloadOnce(),
      () => this.reloadOnce(),
    );
    return this.running;
  }

  private startWatching(): void {
    if (this.watcher || this.stopped) return;
    try {
      this.watcher = watch(this.options.dir, { persistent: false }, () => this.schedule());
      this.watcher.on('error', (err) => {
        this.options.logger.warn({ dir: this.options.dir, err: err.message }, 'certificate directory watch failed');
        this.watcher?.close();
        this.watcher = undefined;
      });
    } catch {
      // The directory does not exist yet; the poll retries.
      this.watcher = undefined;
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => void this.reload(), this.options.debounceMs ?? 50);
    this.debounceTimer.unref();
  }

  private async reloadOnce(): Promise<ReloadResult> {
    const { dir, logger } = this.options;
    let text: { cert: string; key: string };
    try {
      text = await readKeyPair(dir);
    } catch (err) {
      if (!this.lastMissingLogged) {
        logger.warn(
          { dir, err: (err as Error).message },
          this.current ? 'cannot read the serving certificate; keeping the loaded one' : 'waiting for certificates',
        );
        this.lastMissingLogged = true;
      }
      return this.report('missing');
    }
    this.lastMissingLogged = false;
    const hash = hashPair(text.cert, text.key);
    if (hash === this.current?.hash || hash === this.lastRejectedHash) return this.report('unchanged');
    try {
      const pair = checkKeyPair(text.cert, text.key);
      this.options.apply(pair);
      const previous = this.current;
      this.current = pair;
      this.lastRejectedHash = undefined;
      logger.info(
        {
          dir,
          subject: pair.subject,
          serialNumber: pair.serialNumber,
          notAfter: pair.notAfter,
          fingerprint256: pair.fingerprint256,
          replaced: previous?.serialNumber,
        },
        previous ? 'serving certificate reloaded' : 'serving certificate loaded',
      );
      return this.report('loaded');
    } catch (err) {
      this.lastRejectedHash = hash;
      logger.error(
        { dir, err: (err as Error).message, keeping: this.current?.serialNumber ?? null },
        this.current ? 'new serving certificate rejected; keeping the loaded one' : 'serving certificate rejected',
      );
      return this.report('rejected');
    }
  }

  private report(result: ReloadResult): ReloadResult {
    this.options.onResult?.(result);
    return result;
  }
}
