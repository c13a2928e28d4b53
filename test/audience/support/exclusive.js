// A cross-process lock so the audience browser suites never run at the same time as each other
// (Jest runs two files at once). Several Chromium renderers, the show server and a proxy already
// share this machine's two cores; two browser suites at once starve the page timers whose
// accuracy the sync test measures. mkdir is atomic, so the lock is a directory holding the pid.

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LOCK = join(tmpdir(), 'tutti-audience-browser.lock');

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Wait (bounded by `timeoutMs`) until this process holds the lock; returns the release function. */
export async function acquireBrowserLock(timeoutMs = 150_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(LOCK);
      await writeFile(join(LOCK, 'pid'), String(process.pid));
      return () => rm(LOCK, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    // A holder that died without releasing (killed run) must not block everyone forever.
    const pid = Number(await readFile(join(LOCK, 'pid'), 'utf8').catch(() => '0'));
    if (pid > 0 && !alive(pid)) await rm(LOCK, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`another audience browser suite has held ${LOCK} for ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
