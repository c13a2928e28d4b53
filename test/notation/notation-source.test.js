// The engraving finds a score part's <part> by the id `tutti import` gave it
// (docs/reference/notation.md#the-bar-map): both must name the parts the same way, also when the
// file gives several parts one name and tells them apart only by their instruments (music21
// writes every string part as "StringInstrument", with "Violins 1", "Violins 2"… as instruments).
import { importNotationBytes } from '../../local-server/src/import/import-file.js';
import { readNotationSource } from '../../local-server/src/notation/notation-source.js';

/** A <score-part> named `name` whose instrument is `instrument`, with one 4/4 bar of rest. */
const part = (id, name, instrument) => ({
  head: `<score-part id="${id}"><part-name>${name}</part-name><score-instrument id="${id}-i"><instrument-name>${instrument}</instrument-name></score-instrument></score-part>`,
  body: `<part id="${id}"><measure number="1"><attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes><note><rest/><duration>4</duration></note></measure></part>`,
});

const parts = [part('P1', 'Flute', 'Flute'), part('P2', 'StringInstrument', 'Violins 1'), part('P3', 'StringInstrument', 'Violins 2')];
const xml = `<?xml version="1.0"?><score-partwise version="4.0"><part-list>${parts.map((p) => p.head).join('')}</part-list>${parts.map((p) => p.body).join('')}</score-partwise>`;

test('parts sharing a name get the same ids in the engraving as in the imported score', () => {
  const bytes = new TextEncoder().encode(xml);
  const imported = importNotationBytes(bytes, 'strings.musicxml').score.parts.map((p) => p.id);
  const source = readNotationSource(bytes, 'strings.musicxml');
  expect(imported).toEqual(['flute', 'violins-1', 'violins-2']);
  expect(source.parts.map((p) => [p.id, p.xmlId])).toEqual([
    ['flute', 'P1'],
    ['violins-1', 'P2'],
    ['violins-2', 'P3'],
  ]);
});
