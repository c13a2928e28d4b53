// A Standard MIDI File (format 0 or 1) → the neutral piece the time map is built from
// (core/import/time-map.js): measures cut from the ticks by its time signatures, every tempo
// event, marker events as rehearsal marks, tracks with notes as parts (by name, else by General
// MIDI instrument: gm-programs.js), the conductor track's name as the title, and a pickup where
// the barlines show one (midi-pickup.js). Events are parsed by midi-file; here only the chunks
// are walked (alien chunks skipped, a file cut short named).

import midiFile from 'midi-file';
import { ImportError } from '#core/import/import-error.js';
import { fitMeter, METER_UNITS } from '#core/import/meter-fit.js';
import { generalMidiInstruments } from './gm-programs.js';
import { impliedPickupTicks } from './midi-pickup.js';
import { decodeTrackTexts } from './midi-text.js';

const { parseMidi } = midiFile;

/**
 * Read a MIDI file's bytes.
 * @param {Uint8Array} bytes
 * `pickupBeats`: the pickup's length in beats of the first time signature (0: none), when the
 * composer says it; without it the pickup is read from the file's barlines.
 * @param {{ maxMeasures: number, warn: (measure: string, message: string) => void, what?: string, pickupBeats?: number }} options
 * @returns {import('./musicxml.js').NotationPiece}
 */
export function readMidi(bytes, { maxMeasures, warn, what = 'the file', pickupBeats }) {
  if (chunkType(bytes, 0) !== 'MThd') throw new ImportError(`${what} is not a MIDI file: it does not start with "MThd"`);
  let midi;
  try {
    midi = parseMidi(trackChunksOnly(bytes));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const status = /Unrecognised MIDI event type byte: (\d+)/.exec(message);
    if (status && Number(status[1]) > 0xf0)
      throw new ImportError(
        `${what} holds a MIDI message a file may not (status byte 0x${Number(status[1]).toString(16).toUpperCase()}: a live-only system message); export it again from your sequencer`,
      );
    throw new ImportError(`${what} is not a readable MIDI file (${message}); it may be cut short or damaged`);
  }
  const cut = truncation(bytes, midi);
  if (cut) throw new ImportError(`${what} is not a readable MIDI file (${cut}); it may be cut short or damaged`);
  decodeTrackTexts(midi.tracks);
  const ppq = midi.header.ticksPerBeat;
  if (!ppq)
    throw new ImportError(
      `${what} counts time in SMPTE frames, not in beats; export it from your sequencer with a tempo map (ticks per quarter note)`,
    );
  if (midi.header.format === 2) throw new ImportError(`${what} is a format 2 MIDI file (independent patterns); export it as format 1`);

  const events = conductorEvents(midi.tracks);
  if (events.end === 0) throw new ImportError(`${what} holds no events: nothing to import`);
  const pickup = pickupTicks(events, ppq, pickupBeats, warn, what);
  const measures = cutMeasures(events, ppq, pickup, maxMeasures, warn, what);
  return { title: events.title, composer: events.composer, parts: parts(midi, events.title), measures };
}

/** The 4-letter type of the chunk at `offset`. */
const chunkType = (/** @type {Uint8Array} */ bytes, /** @type {number} */ offset) =>
  String.fromCharCode(...bytes.subarray(offset, offset + 4));
const chunkLength = (/** @type {Uint8Array} */ bytes, /** @type {number} */ offset) =>
  ((bytes[offset + 4] << 24) >>> 0) + (bytes[offset + 5] << 16) + (bytes[offset + 6] << 8) + bytes[offset + 7];

// The SMF spec tells readers to skip chunks that are neither the header nor a track ("alien"
// chunks, which a program may add for its own data); midi-file refuses a file that has one. A
// chunk that runs past the end is kept: truncation() names it.
function trackChunksOnly(/** @type {Uint8Array} */ bytes) {
  const kept = [];
  let alien = false;
  for (let offset = 0; offset < bytes.length;) {
    const end = offset + 8 + chunkLength(bytes, offset);
    if (offset + 8 > bytes.length || end > bytes.length || offset === 0 || chunkType(bytes, offset) === 'MTrk')
      kept.push(bytes.subarray(offset, Math.min(end, bytes.length)));
    else alien = true;
    offset = end;
  }
  return alien ? Buffer.concat(kept) : bytes;
}

// midi-file reads what is there without complaint; a file cut short shows as a chunk whose
// declared length runs past the end, fewer tracks than the header says, or a track without its
// end-of-track event.
function truncation(bytes, midi) {
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    const length = chunkLength(bytes, offset);
    if (offset + 8 + length > bytes.length) return `a chunk declares ${length} bytes but only ${bytes.length - offset - 8} follow`;
    offset += 8 + length;
  }
  if (midi.tracks.length < midi.header.numTracks)
    return `the header promises ${midi.header.numTracks} tracks, the file holds ${midi.tracks.length}`;
  const open = midi.tracks.findIndex((t) => t.at(-1)?.type !== 'endOfTrack');
  if (open >= 0) return `track ${open + 1} has no end-of-track event`;
  return undefined;
}

// Every track's time signatures, tempo events and markers with their absolute tick, and where
// the last event ends.
function conductorEvents(tracks) {
  const signatures = [];
  const tempos = [];
  const markers = [];
  let end = 0;
  let lastNoteStart = -1;
  let title;
  let composer;
  tracks.forEach((track, t) => {
    let tick = 0;
    let notes = false;
    for (const e of track) {
      tick += e.deltaTime;
      end = Math.max(end, tick);
      if (e.type === 'timeSignature') signatures.push({ tick, numerator: e.numerator, denominator: e.denominator });
      else if (e.type === 'setTempo') tempos.push({ tick, qpm: 60_000_000 / e.microsecondsPerBeat });
      else if (e.type === 'marker') markers.push({ tick, text: String(e.text ?? '').trim() });
      else if (e.type === 'noteOn') {
        notes = true;
        if (e.velocity > 0) lastNoteStart = Math.max(lastNoteStart, tick);
      } else if (t === 0 && !notes && e.type === 'trackName' && !title) title = titleOf(e.text);
      // A composer's name starts with a capital: abc2midi's "note track" label is not one.
      else if (t === 0 && !notes && e.type === 'text' && !composer && /^[\p{Lu}][\p{L}.' -]{2,60}$/u.test(String(e.text).trim()))
        composer = String(e.text).trim();
    }
  });
  const byTick = (a, b) => a.tick - b.tick;
  // A tempo event that repeats the tempo in force changes nothing (MuseScore writes one for an
  // "a tempo" that returns to where the music already is): not a mark of its own.
  const changes = tempos.sort(byTick).filter((e, i, all) => i === 0 || e.qpm !== all[i - 1].qpm);
  return {
    signatures: signatures.sort(byTick),
    tempos: changes,
    markers: markers.sort(byTick),
    end,
    lastNoteStart,
    title,
    composer,
  };
}

// MMA names the conductor track after its input file as it was given: an absolute path
// ("/home/ann/charts/song") is the file's name, "song".
function titleOf(/** @type {unknown} */ text) {
  const name = String(text ?? '').trim();
  return (/^(\/|[A-Za-z]:[\\/])/.test(name) ? name.split(/[\\/]/).pop() : name) || undefined;
}

// The pickup in ticks: as the composer gave it (in beats of the first time signature), else as
// the file's barlines imply it, said in a warning since it is read, not written.
function pickupTicks(events, ppq, pickupBeats, warn, what) {
  const opening = events.signatures.filter((s) => s.tick === 0).at(-1) ?? { numerator: 4, denominator: 4 };
  const meter = `${opening.numerator}/${opening.denominator}`;
  const beatTicks = (ppq * 4) / opening.denominator;
  const beats = (/** @type {number} */ ticks) => {
    const n = Number((ticks / beatTicks).toFixed(3));
    return `${n} beat${n === 1 ? '' : 's'}`;
  };
  if (pickupBeats !== undefined) {
    if (pickupBeats >= opening.numerator)
      throw new ImportError(
        `a pickup of ${beats(pickupBeats * beatTicks)} is a whole ${meter} bar or more; a pickup is shorter than its bar`,
      );
    // A bar's length must be a meter's: whole 32nd notes (0.3 of a beat is none).
    if (pickupBeats > 0 && !fitMeter((pickupBeats * 4) / opening.denominator, opening.denominator))
      throw new ImportError(
        `a pickup of ${pickupBeats} beats of ${meter} is no length a bar can have; give it in whole 32nd notes (0.5 = an eighth in ${meter}, 0.25 a 16th)`,
      );
    return Math.round(pickupBeats * beatTicks);
  }
  const implied = impliedPickupTicks(events, ppq);
  if (implied > 0) {
    const change = events.signatures.find((s) => s.tick > 0);
    warn(
      '0',
      `is a pickup of ${beats(implied)}, read from ${what}'s barlines: its ${change?.numerator}/${change?.denominator} time signature comes ${beats(implied)} into a ${meter} bar counted from the start, as LilyPond and abc2midi write a pickup; if the piece has none, give a pickup of 0 beats (tutti import --pickup 0, or Pickup in the console)`,
    );
  }
  return implied;
}

// Bars from tick 0 to the end: the pickup (labelled 0, as notation programs number it), then
// each as long as its time signature, or cut short where a time signature arrives mid-bar (with
// a warning).
function cutMeasures({ signatures, tempos, markers, end, lastNoteStart }, ppq, pickup, maxMeasures, warn, what) {
  const measures = [];
  const firstNumber = pickup > 0 ? 0 : 1;
  let sig = { beats: 4, unit: 4 };
  let s = 0;
  let start = 0;
  // Bars run in tick order, so each event list is walked once, a bar taking the events up to its
  // end: filtering every list for every bar was measures × events (1M tempo events over 5,000
  // bars took 21 s).
  const tempoCursor = cursorOver(tempos);
  const markerCursor = cursorOver(markers);
  // A bar is not begun for a release tail (abc2midi ends its track 26 ticks after the last note,
  // MuseScore 1 tick after), only for time that holds more, or a note that starts in it.
  while (start < end - ppq * RELEASE_TAIL_QUARTERS || start <= lastNoteStart || measures.length === 0) {
    const number = measures.length + firstNumber;
    while (s < signatures.length && signatures[s].tick <= start) sig = toMeter(signatures[s++], number, warn) ?? sig;
    let stop = measures.length === 0 && pickup > 0 ? pickup : start + (sig.beats * ppq * 4) / sig.unit;
    const label = String(number);
    if (s < signatures.length && signatures[s].tick < stop) {
      stop = signatures[s].tick;
      warn(label, 'is cut short by a time signature change inside it');
    }
    const length = (stop - start) / ppq;
    const inBar = (cursor) => cursor.take(stop).map((e) => ({ ...e, at: (e.tick - start) / ppq }));
    const time = Math.abs(length - (sig.beats * 4) / sig.unit) < 1e-9 ? sig : (fitMeter(length, sig.unit) ?? sig);
    measures.push({
      label,
      number,
      length,
      time,
      tempos: inBar(tempoCursor).map((e) => ({ at: onTheBeat(e.tick - start, (ppq * 4) / time.unit) / ppq, qpm: e.qpm })),
      ramps: [],
      rehearsals: inBar(markerCursor)
        .filter((e) => e.text)
        .map((e) => ({ at: e.at, text: e.text })),
    });
    if (measures.length > maxMeasures)
      throw new ImportError(
        `${what} is longer than ${maxMeasures.toLocaleString('en')} bars; Tutti imports up to ${maxMeasures.toLocaleString('en')}`,
      );
    start = stop;
  }
  return measures;
}

/**
 * A walk through events sorted by tick: `take(stop)` returns the next ones before `stop`.
 * @template {{ tick: number }} E
 * @param {E[]} events
 * @returns {{ take: (stop: number) => E[] }}
 */
function cursorOver(events) {
  let next = 0;
  return {
    take(stop) {
      const from = next;
      while (next < events.length && events[next].tick < stop) next += 1;
      return events.slice(from, next);
    },
  };
}

/** Less than a 32nd note past the last bar's end is a note's release, not another bar. */
const RELEASE_TAIL_QUARTERS = 1 / 8;

// abc2midi writes a tempo change one tick after the beat it belongs to (tick 4801 for a bar at
// 4800): one tick past a beat is taken as on it, so the summary reads "180 at bar 5", not
// "180.075 at bar 5 · 180 at bar 5 beat 2". One tick moves the timing by a few ms at most.
function onTheBeat(/** @type {number} */ tickInBar, /** @type {number} */ beatTicks) {
  return tickInBar % beatTicks === 1 ? tickInBar - 1 : tickInBar;
}

function toMeter(event, bar, warn) {
  if (event.numerator >= 1 && event.numerator <= 32 && METER_UNITS.includes(event.denominator))
    return { beats: event.numerator, unit: event.denominator };
  warn(String(bar), `has the time signature ${event.numerator}/${event.denominator}, which a score cannot hold; the one before continues`);
  return undefined;
}

// Parts: every track that plays notes, by its name, else by its General MIDI instrument
// (format 0: every channel that plays, by its instrument).
function parts(midi, title) {
  const instruments = generalMidiInstruments(midi.tracks);
  if (midi.header.format === 0) {
    const channels = new Set();
    for (const e of midi.tracks[0] ?? []) if (e.type === 'noteOn') channels.add(e.channel);
    return [...channels].sort((a, b) => a - b).map((c) => instruments.byChannel.get(c) ?? `Channel ${c + 1}`);
  }
  const out = [];
  midi.tracks.forEach((track, i) => {
    if (!track.some((e) => e.type === 'noteOn')) return;
    // abc2midi names its first voice's track after the tune, as the conductor track: the title, not a part.
    const name = track.find((e) => e.type === 'trackName' && trackLabel(e.text) && (i === 0 || trackLabel(e.text) !== title));
    const instrument = track.find((e) => e.type === 'instrumentName' && trackLabel(e.text));
    out.push((name && trackLabel(name.text)) || (instrument && trackLabel(instrument.text)) || instruments.byTrack[i] || `Track ${i + 1}`);
  });
  return out;
}

// LilyPond names a track after its contexts, "<staff>:<voice>" ("horn:" for \new Staff = "horn"),
// and "\new:" for a staff it made itself (\unfoldRepeats on bare music): the names a composer
// gave are kept ("horn", "horn: melody"), LilyPond's own "\new" is no name.
function trackLabel(/** @type {unknown} */ text) {
  return String(text ?? '')
    .split(':')
    .map((piece) => piece.trim())
    .filter((piece) => piece && !piece.startsWith('\\'))
    .join(': ');
}
