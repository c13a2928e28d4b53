// Choosing a score in the desktop app: the native Open dialog, starting in the last score's
// folder or the bundled scores.

import { dirname } from 'node:path';

/**
 * @param {{ dialog: any, window: any, recentScores: string[], scoresDir: string }} deps
 * @returns {Promise<string | null>} the chosen file, or null when cancelled
 */
export async function pickScore({ dialog, window, recentScores, scoresDir }) {
  const result = await dialog.showOpenDialog(window, {
    title: 'Open a score',
    buttonLabel: 'Open score',
    defaultPath: recentScores[0] ? dirname(recentScores[0]) : scoresDir,
    properties: ['openFile'],
    filters: [
      { name: 'Tutti scores', extensions: ['json'] },
      { name: 'Notation to import (MusicXML, MIDI)', extensions: ['musicxml', 'xml', 'mxl', 'mid', 'midi'] },
      { name: 'All files', extensions: ['*'] },
    ],
  });
  if (result.canceled || !result.filePaths?.length) return null;
  return result.filePaths[0];
}
