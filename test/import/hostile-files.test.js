// Hostile notation files (issue 40, items 6 and 7): a DOCTYPE with an external or parameter
// entity, elements nested past the parser's depth, entities expanding past its limit, and an .mxl
// entry that unpacks far beyond the size it declares. Each is one clear sentence: 400
// IMPORT_FAILED from the console's route (never a 500) and the same sentence from `tutti import`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync, zipSync } from 'fflate';
import { runCli } from '../../local-server/src/cli.js';
import { startShowServer } from '../../local-server/src/server.js';

const TOKEN = 'hostile-import-token';
let dir;
let server;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tutti-import-hostile-'));
  server = await startShowServer({ host: '127.0.0.1', port: 0, controlPort: 0, token: TOKEN });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function consoleImport(file) {
  const res = await fetch(`${server.controlUrl}/api/score/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ path: file }),
  });
  return { status: res.status, body: await res.json() };
}

async function cliImport(file) {
  const err = [];
  const code = await runCli(['import', file, '--out', path.join(dir, 'never.score.json')], { out: () => {}, err: (s) => err.push(s) });
  return { code, err: err.join('\n') };
}

/** Both doors give the same one sentence matching `reason`. */
async function expectRefused(name, content, reason) {
  const file = path.join(dir, name);
  await writeFile(file, content);
  const route = await consoleImport(file);
  expect(route.status).toBe(400);
  expect(route.body.error).toBe('IMPORT_FAILED');
  expect(route.body.message).toMatch(reason);
  const cli = await cliImport(file);
  expect(cli.code).toBe(1);
  expect(cli.err).toBe(`tutti import: ${route.body.message}`);
  return route.body.message;
}

const head = '<?xml version="1.0" encoding="UTF-8"?>';
const score = (body) => `<score-partwise version="4.0"><work><work-title>${body}</work-title></work></score-partwise>`;

test('an external entity is refused by name, never loaded', async () => {
  await expectRefused(
    'xxe.musicxml',
    `${head}<!DOCTYPE score-partwise [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${score('&xxe;')}`,
    /^xxe\.musicxml cannot be read: it declares an external entity/,
  );
});

test('a parameter entity is refused by name', async () => {
  await expectRefused(
    'param.musicxml',
    `${head}<!DOCTYPE score-partwise [<!ENTITY % p "x"> %p;]>${score('x')}`,
    /^param\.musicxml cannot be read: it declares a parameter entity/,
  );
});

test('elements nested more than 100 deep are refused with the depth', async () => {
  await expectRefused(
    'deep.musicxml',
    `${head}<score-partwise>${'<a>'.repeat(150)}${'</a>'.repeat(150)}</score-partwise>`,
    /nest more than 100 levels deep/,
  );
});

test('entities expanding past the limit are refused with the limit', async () => {
  const doctype = '<!DOCTYPE score-partwise [<!ENTITY a "aaaaaaaaaa">]>';
  await expectRefused('lol.musicxml', `${head}${doctype}${score('&a;'.repeat(20_000))}`, /entities expand beyond .*100000/);
});

test('an .mxl entry unpacking far beyond its declared 1,000 bytes stops at 1,000, fast', async () => {
  const inner = new Uint8Array(64 * 1024 * 1024).fill(0x20); // 64 MB of spaces, ~64 KB deflated
  const zip = zipSync({ 'score.musicxml': inner }, { level: 6 });
  // The declared (uncompressed) size, in the local header (offset 22) and the central directory entry (+24).
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  view.setUint32(22, 1000, true);
  let central = zip.length - 22;
  while (view.getUint32(central, true) !== 0x02014b50) central--;
  view.setUint32(central + 24, 1000, true);
  // What unpacking it all costs here, to compare with the refusal (one run, same machine).
  const compressed = zip.subarray(30 + 'score.musicxml'.length, central);
  const t0 = performance.now();
  expect(inflateSync(compressed).length).toBe(inner.length);
  const inflateAll = performance.now() - t0;
  const message = await expectRefused(
    'bomb.mxl',
    zip,
    /^bomb\.mxl: score\.musicxml declares 1,000 bytes but unpacks to more; stopped at 1,000$/,
  );
  expect(message).not.toMatch(/well-formed/);
  // Refusing it (the CLI, in this process) costs a small part of unpacking it all.
  const t1 = performance.now();
  expect((await cliImport(path.join(dir, 'bomb.mxl'))).code).toBe(1);
  const refused = performance.now() - t1;
  expect(refused).toBeLessThan(inflateAll / 4);
}, 30_000);

test("a file's words and measure numbers with 8-bit escapes reach no terminal: warnings are cleaned", async () => {
  // U+009B is CSI in its 8-bit form (XML 1.0 allows it as a character reference).
  const bar = (n, words) =>
    `<measure number="${n}"><attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes>${words ? `<direction><direction-type><words>${words}</words></direction-type></direction>` : ''}<note><pitch><step>C</step><octave>4</octave></pitch><duration>4</duration><type>whole</type></note></measure>`;
  const file = path.join(dir, 'escapes.musicxml');
  await writeFile(
    file,
    `${head}<score-partwise><part-list><score-part id="P1"><part-name>Solo&#155;2J</part-name></score-part></part-list><part id="P1">${bar('1', 'Presto&#155;31m')}${bar('X&#155;2J')}</part></score-partwise>`,
  );
  const out = [];
  const code = await runCli(['import', file, '--out', path.join(dir, 'escapes.score.json')], {
    out: (s) => out.push(s),
    err: (s) => out.push(s),
  });
  expect(code).toBe(0);
  const printed = out.join('\n');
  expect(printed).toMatch(/says "Presto" without a metronome mark/);
  expect(printed).toMatch(/Parts: +Solo \/solo/);
  // eslint-disable-next-line no-control-regex -- what must not be printed
  expect(printed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
});

test('numeric character references are decoded: Caf&#233; is Café', async () => {
  const file = path.join(dir, 'refs.musicxml');
  await writeFile(
    file,
    `${head}<score-partwise><work><work-title>Caf&#233; &#xE9;t&#233;</work-title></work><part-list><score-part id="P1"><part-name>Fl&#251;te</part-name></score-part></part-list><part id="P1"><measure number="1"><attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes><note><pitch><step>C</step><octave>4</octave></pitch><duration>4</duration><type>whole</type></note></measure></part></score-partwise>`,
  );
  const route = await consoleImport(file);
  expect(route.status).toBe(200);
  expect(route.body.lines[0]).toMatch(/"Café été"/);
  expect(route.body.lines.join('\n')).toMatch(/Parts: +Flûte \/flute/);
});
