// PGlite has no server to arbitrate between processes: two processes opening one data
// folder would corrupt it. The service therefore takes a lock file holding its pid and
// refuses to start while another live process holds it. A lock left by a dead process
// (kill -9, power loss) is taken over.
import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is already in use by process ${pid}. ` +
        'Only one process can open a PGlite data folder: stop that process, use another DATA_DIR, ' +
        'or run several processes against PostgreSQL with DATABASE_URL.',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; ESRCH: it is gone.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * DATA_DIR holds the database, whose rows are the platform's secrets and its buyers' data:
 * the service makes it owner-only (0700) and the entry points make every file they create
 * owner-only too (restrictNewFiles). A folder that already exists with wider rights is
 * left as the operator made it (they may share it on purpose), with a warning at start.
 */
export function dataDirWarning(dir: string): string | undefined {
  let mode: number;
  try {
    mode = fs.statSync(dir).mode & 0o777;
  } catch {
    return undefined; // not there yet: it is created 0700
  }
  if ((mode & 0o077) === 0) return undefined;
  return `DATA_DIR ${dir} can be read or entered by other users of this machine (mode ${mode.toString(8)}); it holds the database: chmod 700 ${dir}`;
}

/** From now on this process creates files 0600 and folders 0700 (the database's, images, backups). */
export function restrictNewFiles() {
  process.umask(0o077);
}

export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'surtido.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(dir, holder);
      }
      fs.rmSync(file, { force: true }); // stale: its process is dead
    }
  }
  throw new Error(`could not lock ${dir}`);
}
