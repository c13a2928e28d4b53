// Rehearsal mode through the edge (docs/how-to/rehearse.md#rehearsal-mode; docs/explanation/edge-design.md: the edge
// relays the venue's state and derives the lean stream at its root): a real venue server mirrors
// to the worker on local workerd; the edge's full and lean streams carry `"rehearsal": true` and
// no vote, the edge refuses a vote for the console-only round, the audience page served by the
// edge shows the rehearsal screen in real Chromium, and all of it goes when rehearsal mode ends.

/* global document, window */
import { ARTIFACTS, openPage, waitInPage } from '../audience/support/browser.js';
import { startShow } from '../support/show.js';
import { writeRehearsalModeScore } from '../support/rehearsal-mode-score.js';
import { startEdgeAndBrowser } from './page-suite.js';
import { edgeVote, openSocket, openViewer, stateOf, waitFor } from './helpers.js';

let edge;
let browser;
let stop;
let venue;

beforeAll(async () => {
  ({ edge, browser, stop } = await startEdgeAndBrowser());
  venue = await startShow({ scorePath: writeRehearsalModeScore(), autoplay: false, edgeUrl: edge.url, edgeToken: edge.token });
  await waitFor(() => venue.status().edge.connected === true, { timeoutMs: 15_000, what: 'the venue connected to the edge' });
}, 180_000);

afterAll(async () => {
  await venue?.close();
  await stop?.();
});

const post = (p, body) =>
  fetch(`${venue.controlUrl}${p}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${venue.token}` },
    body: JSON.stringify(body),
  }).then((r) => r.json());

test('the edge relays rehearsal mode on its full and lean streams and its page; votes there are refused; off goes through too', async () => {
  const full = await openViewer(edge);
  const lean = openSocket(`${edge.wsUrl}/ws?stream=lean`);
  await lean.opened;
  const opened = await openPage(browser);
  const { page } = opened;
  await page.goto(`${edge.url}/`);
  await waitInPage(page, () => window.__tutti?.connection().live);

  expect((await post('/api/rehearsal-mode', { on: true })).rehearsal).toBe(true);
  await waitFor(() => stateOf(full)?.rehearsal === true && stateOf(lean)?.rehearsal === true, { what: 'the flag on both edge streams' });
  await waitInPage(page, () => window.__tutti.rehearsal());
  expect(await page.isVisible('#rehearsal')).toBe(true);
  expect(await page.isVisible('#counter')).toBe(false);
  // The page was open before: what it showed then stays in its log, nothing new is shown from now on.
  const viewsBefore = (await page.evaluate(() => window.__tutti.viewChanges())).length;

  // The run-through reaches the prompt: the console has the round, the edge's viewers no vote,
  // and a vote sent to the edge with the round's key is refused.
  await post('/api/transport', { action: 'play' });
  await waitFor(() => venue.votes.status()?.phase === 'open', { timeoutMs: 15_000, what: 'the prompt open at the venue' });
  await waitFor(() => stateOf(full)?.position?.bar >= 6, { timeoutMs: 15_000, what: 'bar 6 on the edge' });
  expect(stateOf(full).vote).toBeUndefined();
  expect(stateOf(lean).vote).toBeUndefined();
  const answer = await edgeVote(full, venue.votes.status().key, 'a', 'edge-rehearsal-device-01');
  expect(answer.ok).toBe(false);
  expect(await page.isVisible('#vote')).toBe(false);
  expect(await page.evaluate(() => window.__tutti.viewChanges().length)).toBe(viewsBefore);
  expect(await page.evaluate(() => window.__tutti.audio())).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}rehearsal-edge.png` });

  expect((await post('/api/rehearsal-mode', { on: false })).rehearsal).toBe(false);
  await waitFor(() => stateOf(full)?.rehearsal === undefined && stateOf(lean)?.rehearsal === undefined, {
    what: 'the flag gone on the edge',
  });
  await waitInPage(page, () => !window.__tutti.rehearsal() && document.getElementById('counter').checkVisibility());
  await waitInPage(page, () => /^Bar \d+$/.test(document.getElementById('text').textContent));
  expect(opened.problems).toEqual([]);
  await opened.context.close();
  await full.close();
  await lean.close();
}, 90_000);
