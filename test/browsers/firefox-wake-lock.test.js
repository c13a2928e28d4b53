// Firefox's own wake lock for the keep-awake video (docs/explanation/browser-differences.md#screen-on-service-worker-plain-http), read
// where it is kept: nsIPowerManagerService's "video-playing" lock, over Marionette in the browser's
// chrome context. Firefox takes it only for a playing video with an audio track, so the old
// video-only WebM held none (measured: "unlocked"); the page on a plain-HTTP LAN address must hold
// it after the Join tap, past the clip's first pass, and let it go when the show is over.
import { networkInterfaces } from 'node:os';
import { unavailable } from './support/engines.js';
import { launchMarionetteFirefox } from './support/marionette.js';
import { startShow } from '../support/show.js';
import { control } from '../audience/support/browser.js';

const reason = unavailable('firefox');
const lan = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

let show;
let firefox;
const run = reason || !lan ? test.skip : test;
if (reason && process.env.TUTTI_REQUIRE_ENGINES)
  test('firefox is installed', () => {
    throw new Error(reason);
  });
if (reason || !lan) console.warn(`test:browsers: Firefox wake lock not checked: ${reason ?? 'no non-loopback address on this machine'}`);

beforeAll(async () => {
  if (reason || !lan) return;
  [show, firefox] = await Promise.all([startShow({ host: '0.0.0.0' }), launchMarionetteFirefox()]);
}, 90_000);
afterAll(async () => {
  await firefox?.close();
  await show?.close();
});

run(
  "the keep-awake video holds Firefox's video wake lock on a plain-HTTP LAN address, past its first pass, until the show is over",
  async () => {
    await firefox.goto(`http://${lan}:${new URL(show.audienceUrl).port}/`);
    const deadline = Date.now() + 15_000;
    while (!(await firefox.evaluate(() => Boolean(window.__tutti?.connection().live)))) {
      if (Date.now() > deadline) throw new Error('page not live');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await firefox.evaluate(() => window.isSecureContext)).toBe(false);
    expect(await firefox.wakeLockState('video-playing')).toBe('unlocked'); // nothing before the tap
    await firefox.click('#join');
    const held = [];
    for (let i = 0; i < 12; i += 1) {
      await new Promise((r) => setTimeout(r, 500));
      held.push(await firefox.wakeLockState('video-playing'));
    }
    const video = await firefox.evaluate(() => ({
      ...window.__tutti.screenOn(),
      hasAudio: document.getElementById('keep-awake').mozHasAudio,
    }));
    console.log(`firefox wake lock over 6 s after Join: ${held.join(' ')}; ${JSON.stringify(video)}`);
    expect(video).toMatchObject({ method: 'video', video: true, hasAudio: true });
    expect(video.restarts).toBeGreaterThanOrEqual(2); // 6 s of a 2 s clip: well past its first pass
    // Held from shortly after the tap to the end of the 6 s (the first sample may precede the first frame).
    expect(held.slice(2).every((s) => s === 'locked-foreground')).toBe(true);
    // The piece runs out: the video stops and the lock is let go.
    await control(show, 'POST', '/api/transport', { action: 'stop' });
    const until = Date.now() + 10_000;
    while ((await firefox.wakeLockState('video-playing')) !== 'unlocked') {
      if (Date.now() > until) throw new Error('wake lock still held after the show stopped');
      await new Promise((r) => setTimeout(r, 200));
    }
  },
  60_000,
);
