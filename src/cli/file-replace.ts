// Replaces a user's file with new text atomically (a temporary file in the same directory, then rename) while keeping
// what the file was: its mode, its owner, and a symlink (written through to its target, the link kept). A file that
// cannot be replaced so is refused with a FileReplaceError that names it and says what to do; it is never replaced
// half-way or silently. Knows nothing of YAML.
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

export class FileReplaceError extends Error {}

const reason = (err: unknown): string =>
  (err as NodeJS.ErrnoException).code === 'ENOENT'
    ? 'no such file or directory'
    : err instanceof Error
      ? err.message
      : String(err);

const octal = (mode: number): string => `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;

export interface Replaced {
  /** The regular file written: `path` itself, or the target of the symlink `path`. */
  target: string;
}

/** Writes `text` over the file at `path` (through a symlink to its target), keeping mode and owner. */
export function replaceFile(path: string, text: string): Replaced {
  const fail = (what: string): never => {
    throw new FileReplaceError(`${path}: not written: ${what}`);
  };
  let target = path;
  try {
    if (lstatSync(path).isSymbolicLink()) target = realpathSync(path);
  } catch (err) {
    fail(reason(err));
  }
  const via = target === path ? '' : ` (the target of the symlink, ${target})`;
  let st;
  try {
    st = statSync(target);
  } catch (err) {
    return fail(reason(err));
  }
  if (!st.isFile()) fail(`not a regular file${via}`);
  if ((st.mode & 0o222) === 0)
    fail(`the file${via} is read-only (mode ${octal(st.mode)}); make it writable (chmod u+w ${target}) to migrate it`);
  try {
    accessSync(target, constants.W_OK);
  } catch {
    fail(`permission denied writing the file${via} (mode ${octal(st.mode)}, owner uid ${st.uid})`);
  }
  if (st.nlink > 1)
    fail(
      `it has ${st.nlink} hard links${via}, and replacing it would leave the other names with the old text; ` +
        `print the migration (without --write) and copy it over the file`,
    );
  const dir = dirname(target);
  const dirFail = (): never =>
    fail(
      `the directory ${dir} is not writable, and the file is replaced atomically through a temporary file there; ` +
        `make the directory writable to migrate it`,
    );
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    dirFail();
  }
  const tmp = join(dir, `.${basename(target)}.cluster-probe-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, 'wx', st.mode & 0o777);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? dirFail() : fail(reason(err));
  }
  try {
    try {
      // The owner when it differs from ours, then the mode as it was: open() applied the umask, and chown clears
      // the set-id bits.
      const mine = fstatSync(fd);
      if (mine.uid !== st.uid || mine.gid !== st.gid) fchownSync(fd, st.uid, st.gid);
      fchmodSync(fd, st.mode & 0o7777);
    } catch (err) {
      fail(
        `it belongs to uid ${st.uid} gid ${st.gid} with mode ${octal(st.mode)}, which its replacement cannot keep ` +
          `(${reason(err)}); run as its owner`,
      );
    }
    const bytes = Buffer.from(text, 'utf8');
    for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off);
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, target);
  } catch (err) {
    if (fd >= 0) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // already renamed or never created
    }
    if (err instanceof FileReplaceError) throw err;
    fail(reason(err));
  }
  return { target };
}
