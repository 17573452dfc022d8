// The certificate reloader: picks up a Secret-volume style `..data` symlink swap through the watch, a plain file
// rewrite through the poll, and keeps the loaded pair when the new one is bad.
import { expect } from 'chai';
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import {
  CertificateReloader,
  createCertificateAuthority,
  createServingCertificate,
  type LoadedKeyPair,
  type PemPair,
} from '../../../src/certs/index.js';

const silent = pino({ level: 'silent' });

/** Polls every 20 ms; the deadline only catches a hang (docs/testing.md): each wait takes about 100 ms when quiet. */
async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Lays out a directory as the kubelet does for a Secret volume: files are symlinks through `..data`. */
async function secretVolume(dir: string, pair: PemPair, generation: number): Promise<void> {
  const versioned = path.join(dir, `..${generation}`);
  await mkdir(versioned);
  await writeFile(path.join(versioned, 'tls.crt'), pair.cert);
  await writeFile(path.join(versioned, 'tls.key'), pair.key);
  const tmpLink = path.join(dir, '..data_tmp');
  await symlink(`..${generation}`, tmpLink);
  await rename(tmpLink, path.join(dir, '..data')); // the atomic swap
  for (const file of ['tls.crt', 'tls.key']) {
    await symlink(`..data/${file}`, path.join(dir, file)).catch(() => undefined);
  }
}

describe('certificate reloader', () => {
  let dir: string;
  let ca: PemPair;
  let reloader: CertificateReloader | undefined;
  before(async () => {
    ca = await createCertificateAuthority();
  });
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cluster-probe-reload-'));
  });
  afterEach(async () => {
    reloader?.stop();
    reloader = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('reports missing until the files appear, then loads them on the next poll', async () => {
    const applied: LoadedKeyPair[] = [];
    reloader = new CertificateReloader({ dir, logger: silent, apply: (p) => applied.push(p), pollIntervalMs: 50 });
    expect(await reloader.start()).to.equal('missing');
    expect(reloader.loaded).to.equal(false);
    const pair = await createServingCertificate(ca, { dnsNames: ['localhost'], ipAddresses: [] });
    await writeFile(path.join(dir, 'tls.key'), pair.key);
    await writeFile(path.join(dir, 'tls.crt'), pair.cert);
    await waitFor(() => reloader?.loaded === true);
    expect(applied.map((p) => p.cert)).to.deep.equal([pair.cert]);
  });

  it('follows a ..data symlink swap through the watch, well before the poll', async () => {
    const first = await createServingCertificate(ca, { dnsNames: ['first'], ipAddresses: [] });
    const second = await createServingCertificate(ca, { dnsNames: ['second'], ipAddresses: [] });
    await secretVolume(dir, first, 1);
    const applied: string[] = [];
    reloader = new CertificateReloader({
      dir,
      logger: silent,
      apply: (p) => applied.push(p.subject),
      // No poll during the test: what loads the second pair can only be the watch, however long the machine takes.
      pollIntervalMs: 3_600_000,
    });
    expect(await reloader.start()).to.equal('loaded');
    await secretVolume(dir, second, 2);
    await waitFor(() => applied.length === 2);
    expect(applied).to.deep.equal(['CN=first', 'CN=second']);
  });

  it('keeps the loaded pair when the new key does not match, and loads the next good pair', async () => {
    const first = await createServingCertificate(ca, { dnsNames: ['first'], ipAddresses: [] });
    const other = await createServingCertificate(ca, { dnsNames: ['other'], ipAddresses: [] });
    await writeFile(path.join(dir, 'tls.crt'), first.cert);
    await writeFile(path.join(dir, 'tls.key'), first.key);
    const results: string[] = [];
    reloader = new CertificateReloader({
      dir,
      logger: silent,
      apply: () => undefined,
      pollIntervalMs: 60_000,
      onResult: (r) => results.push(r),
    });
    await reloader.start();
    await writeFile(path.join(dir, 'tls.key'), other.key);
    await reloader.reload(); // the watch may have got there first; either way it is rejected
    const rejections = results.filter((r) => r === 'rejected').length;
    expect(rejections).to.be.at.least(1);
    expect(reloader.pair?.subject).to.equal('CN=first');
    // The same bad pair again is not re-logged as a new rejection.
    expect(await reloader.reload()).to.equal('unchanged');
    expect(results.filter((r) => r === 'rejected')).to.have.length(rejections);
    await writeFile(path.join(dir, 'tls.crt'), other.cert);
    await reloader.reload();
    expect(results.filter((r) => r === 'loaded')).to.have.length(2);
    expect(reloader.pair?.subject).to.equal('CN=other');
  });

  it('counts a pair the server refuses as rejected and keeps the old one', async () => {
    const first = await createServingCertificate(ca, { dnsNames: ['first'], ipAddresses: [] });
    const second = await createServingCertificate(ca, { dnsNames: ['second'], ipAddresses: [] });
    await writeFile(path.join(dir, 'tls.crt'), first.cert);
    await writeFile(path.join(dir, 'tls.key'), first.key);
    let refuse = false;
    const results: string[] = [];
    reloader = new CertificateReloader({
      dir,
      logger: silent,
      apply: () => {
        if (refuse) throw new Error('refused');
      },
      pollIntervalMs: 60_000,
      onResult: (r) => results.push(r),
    });
    await reloader.start();
    refuse = true;
    await writeFile(path.join(dir, 'tls.crt'), second.cert);
    await writeFile(path.join(dir, 'tls.key'), second.key);
    await reloader.reload();
    expect(results).to.include('rejected');
    expect(reloader.pair?.subject).to.equal('CN=first');
  });
});
