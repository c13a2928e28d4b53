// General MIDI Level 1's 128 program (instrument) names, by program number 0–127, as the MIDI
// Manufacturers Association lists them. A MIDI file whose tracks carry no name (MuseScore 3 writes
// none, only each track's program change) still names its parts by instrument: "Violin", not
// "Track 2".

const NAMES = [
  'Acoustic Grand Piano',
  'Bright Acoustic Piano',
  'Electric Grand Piano',
  'Honky-tonk Piano',
  'Electric Piano 1',
  'Electric Piano 2',
  'Harpsichord',
  'Clavinet',
  'Celesta',
  'Glockenspiel',
  'Music Box',
  'Vibraphone',
  'Marimba',
  'Xylophone',
  'Tubular Bells',
  'Dulcimer',
  'Drawbar Organ',
  'Percussive Organ',
  'Rock Organ',
  'Church Organ',
  'Reed Organ',
  'Accordion',
  'Harmonica',
  'Tango Accordion',
  'Acoustic Guitar (nylon)',
  'Acoustic Guitar (steel)',
  'Electric Guitar (jazz)',
  'Electric Guitar (clean)',
  'Electric Guitar (muted)',
  'Overdriven Guitar',
  'Distortion Guitar',
  'Guitar Harmonics',
  'Acoustic Bass',
  'Electric Bass (finger)',
  'Electric Bass (pick)',
  'Fretless Bass',
  'Slap Bass 1',
  'Slap Bass 2',
  'Synth Bass 1',
  'Synth Bass 2',
  'Violin',
  'Viola',
  'Cello',
  'Contrabass',
  'Tremolo Strings',
  'Pizzicato Strings',
  'Orchestral Harp',
  'Timpani',
  'String Ensemble 1',
  'String Ensemble 2',
  'Synth Strings 1',
  'Synth Strings 2',
  'Choir Aahs',
  'Voice Oohs',
  'Synth Voice',
  'Orchestra Hit',
  'Trumpet',
  'Trombone',
  'Tuba',
  'Muted Trumpet',
  'French Horn',
  'Brass Section',
  'Synth Brass 1',
  'Synth Brass 2',
  'Soprano Sax',
  'Alto Sax',
  'Tenor Sax',
  'Baritone Sax',
  'Oboe',
  'English Horn',
  'Bassoon',
  'Clarinet',
  'Piccolo',
  'Flute',
  'Recorder',
  'Pan Flute',
  'Blown Bottle',
  'Shakuhachi',
  'Whistle',
  'Ocarina',
  'Lead 1 (square)',
  'Lead 2 (sawtooth)',
  'Lead 3 (calliope)',
  'Lead 4 (chiff)',
  'Lead 5 (charang)',
  'Lead 6 (voice)',
  'Lead 7 (fifths)',
  'Lead 8 (bass + lead)',
  'Pad 1 (new age)',
  'Pad 2 (warm)',
  'Pad 3 (polysynth)',
  'Pad 4 (choir)',
  'Pad 5 (bowed)',
  'Pad 6 (metallic)',
  'Pad 7 (halo)',
  'Pad 8 (sweep)',
  'FX 1 (rain)',
  'FX 2 (soundtrack)',
  'FX 3 (crystal)',
  'FX 4 (atmosphere)',
  'FX 5 (brightness)',
  'FX 6 (goblins)',
  'FX 7 (echoes)',
  'FX 8 (sci-fi)',
  'Sitar',
  'Banjo',
  'Shamisen',
  'Koto',
  'Kalimba',
  'Bagpipe',
  'Fiddle',
  'Shanai',
  'Tinkle Bell',
  'Agogo',
  'Steel Drums',
  'Woodblock',
  'Taiko Drum',
  'Melodic Tom',
  'Synth Drum',
  'Reverse Cymbal',
  'Guitar Fret Noise',
  'Breath Noise',
  'Seashore',
  'Bird Tweet',
  'Telephone Ring',
  'Helicopter',
  'Applause',
  'Gunshot',
];

/** MIDI channel 10 (9 counted from 0) is General MIDI's percussion: its program picks a drum kit. */
const PERCUSSION_CHANNEL = 9;

/**
 * The General MIDI name of a program, 0–127 as a MIDI file stores it (MusicXML's <midi-program>
 * counts 1–128: subtract one); undefined for any other number.
 * @param {number} program
 * @returns {string | undefined}
 */
export function generalMidiName(program) {
  return Number.isInteger(program) ? NAMES[program] : undefined;
}

/**
 * The instrument each track, and each channel, plays by General MIDI: the program in force on
 * the channel (and port) of its first note — set in any track, as a channel's program is shared
 * (MuseScore sets a piano's in the right hand's track only, and gives pizzicato and tremolo
 * channels of their own after the main one) — and "Percussion" on channel 10; undefined where no
 * program is set.
 * @param {ReadonlyArray<ReadonlyArray<{ deltaTime: number, type: string, channel?: number, programNumber?: number, velocity?: number, port?: number }>>} tracks midi-file's tracks
 * @returns {{ byTrack: Array<string | undefined>, byChannel: Map<number, string | undefined> }}
 */
export function generalMidiInstruments(tracks) {
  /** @type {Array<{ tick: number, track: number, key: string, program: number }>} */
  const changes = [];
  /** @type {Array<{ tick: number, track: number, key: string, channel: number }>} */
  const firstNotes = [];
  tracks.forEach((track, t) => {
    let tick = 0;
    let port = 0;
    const seen = new Set();
    for (const e of track) {
      tick += e.deltaTime;
      if (e.type === 'portPrefix') port = e.port ?? 0;
      else if (e.type === 'programChange' && e.channel !== undefined)
        changes.push({ tick, track: t, key: `${port}:${e.channel}`, program: e.programNumber ?? 0 });
      else if (e.type === 'noteOn' && (e.velocity ?? 0) > 0 && e.channel !== undefined && !seen.has(e.channel)) {
        seen.add(e.channel);
        firstNotes.push({ tick, track: t, key: `${port}:${e.channel}`, channel: e.channel });
      }
    }
  });
  const instrument = (/** @type {(typeof firstNotes)[number]} */ note) => {
    if (note.channel === PERCUSSION_CHANNEL) return 'Percussion';
    // The last change at or before the note; at the same tick, the note's own track's wins.
    const set = changes
      .filter((c) => c.key === note.key && c.tick <= note.tick)
      .sort((a, b) => a.tick - b.tick || Number(a.track === note.track) - Number(b.track === note.track))
      .at(-1);
    return set === undefined ? undefined : NAMES[set.program];
  };
  // A track's notes were collected in its own tick order: its first is the first found.
  const byTrack = tracks.map((_, t) => {
    const first = firstNotes.find((n) => n.track === t);
    return first && instrument(first);
  });
  const byChannel = new Map();
  for (const note of [...firstNotes].sort((a, b) => a.tick - b.tick))
    if (!byChannel.has(note.channel)) byChannel.set(note.channel, instrument(note));
  return { byTrack, byChannel };
}
