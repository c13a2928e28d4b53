// The console's import of a notation file (docs/how-to/import.md#bringing-a-piece-in): what was found and
// every warning first, with "Save … and load" to write the *.score.json; for a MIDI file, the
// pickup the file may hide (LilyPond, abc2midi write it as bare notes), typed in and imported
// again. Nothing is written before "Save".

import { basename, h, fill } from './dom.js';

/**
 * @param {{ api: any, box: HTMLElement, setBusy: (on: boolean) => void, showResult: (result: any) => void, saved: (scorePath: string) => any }} deps
 *   `box`: where the preview shows; `showResult`: the score panel's problem list; `saved`: load
 *   the score just written
 * @returns {(path: string, pickup?: number) => Promise<void>} preview the import of `path`
 *   (`pickup`: MIDI only, the pickup's length in beats, when the composer corrects the file)
 */
export function createImportPreview({ api, box, setBusy, showResult, saved }) {
  const withPickup = (pickup) => (pickup === null || pickup === undefined ? {} : { pickup });

  async function preview(path, pickup) {
    setBusy(true);
    try {
      show(await api.post('/api/score/import', { path, ...withPickup(pickup) }));
    } catch (err) {
      showResult({ ok: false, file: path, problems: [{ path: '(import)', message: err.message }] });
    } finally {
      setBusy(false);
    }
  }

  function show(found) {
    box.hidden = false;
    box.className = found.warnings.length ? 'problems import' : 'problems ok import';
    const save = (force) => async () => {
      setBusy(true);
      let written;
      try {
        written = await api.post('/api/score/import', { path: found.file, out: found.out, save: true, force, ...withPickup(found.pickup) });
      } catch (err) {
        return showResult({ ok: false, file: found.file, problems: [{ path: '(import)', message: err.message }] });
      } finally {
        setBusy(false);
      }
      return saved(written.out);
    };
    fill(
      box,
      h('h4', { text: `Imported ${basename(found.file)} (${found.kind}): ${found.score?.bars ?? '?'} bars — not saved yet` }),
      h('pre', { class: 'import-summary', 'data-testid': 'import-summary', text: found.lines.join('\n') }),
      found.kind === 'MIDI' ? pickupRow(found) : null,
      h(
        'div',
        { class: 'field-row' },
        h('button', {
          type: 'button',
          class: 'btn btn-primary',
          'data-testid': 'import-save',
          text: found.exists ? `Replace ${basename(found.out)} and load` : `Save ${basename(found.out)} and load`,
          onclick: save(found.exists),
        }),
      ),
    );
  }

  function pickupRow(found) {
    const beats = /** @type {HTMLInputElement} */ (
      h('input', {
        id: 'import-pickup',
        type: 'number',
        min: 0,
        max: 32,
        step: 0.25,
        size: 5,
        value: found.pickup === null || found.pickup === undefined ? '' : String(found.pickup),
        placeholder: 'from file',
        dataset: { testid: 'import-pickup' },
      })
    );
    const again = () => {
      const text = beats.value.trim();
      preview(found.file, text === '' ? undefined : Number(text));
    };
    return h(
      'div',
      { class: 'field-row' },
      h(
        'label',
        {
          class: 'field-sm',
          title:
            "The pickup (upbeat) before bar 1, in beats of the first time signature (0.5 = an eighth in 4/4; 0 = none). Empty: as the file's barlines show it",
        },
        'Pickup (beats)',
        ' ',
        beats,
      ),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'import-again', text: 'Import again', onclick: again }),
    );
  }

  return preview;
}
