// The native menus. Built as a plain template (tested without Electron); actions go to the
// console window as menu commands or to the callbacks given.

import { basename } from 'node:path';

/**
 * @param {object} options
 * @param {string} options.platform process.platform
 * @param {string} options.appName
 * @param {string[]} options.recentScores
 * @param {boolean} options.isPackaged
 * @param {(command: { command: string, path?: string }) => void} options.command send to the console
 * @param {() => void} options.clearRecent
 * @param {() => void} options.openAudience open the audience page in the system browser
 * @param {() => void} options.showSettings reveal the settings file
 * @returns {any[]} a Menu.buildFromTemplate template
 */
export function menuTemplate({ platform, appName, recentScores, isPackaged, command, clearRecent, openAudience, showSettings }) {
  const mac = platform === 'darwin';
  const recent = recentScores.length
    ? [
        ...recentScores.map((path) => ({
          label: basename(path),
          sublabel: path,
          toolTip: path,
          click: () => command({ command: 'load-score', path }),
        })),
        { type: 'separator' },
        { label: 'Clear Recent', click: clearRecent },
      ]
    : [{ label: 'No recent scores', enabled: false }];
  return [
    ...(mac
      ? [
          {
            label: appName,
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          },
        ]
      : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open Score…', accelerator: 'CmdOrCtrl+O', click: () => command({ command: 'open-score' }) },
        { label: 'Open Recent', submenu: recent },
        { type: 'separator' },
        { label: 'Show Settings File', click: showSettings },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'Transport',
      submenu: [
        // Space and Esc are handled by the page itself (as menu accelerators they would be
        // swallowed while typing in a field); the menu offers modifier shortcuts instead.
        {
          label: 'Play / Pause',
          accelerator: 'CmdOrCtrl+Enter',
          toolTip: 'Space in the console',
          click: () => command({ command: 'play-pause' }),
        },
        { label: 'Stop', accelerator: 'CmdOrCtrl+.', toolTip: 'Esc in the console', click: () => command({ command: 'stop' }) },
        { label: 'Jump to Bar…', accelerator: 'CmdOrCtrl+J', click: () => command({ command: 'jump' }) },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { role: 'resetZoom' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(isPackaged ? [] : [{ type: 'separator' }, { role: 'reload' }, { role: 'toggleDevTools' }]),
      ],
    },
    { label: 'Audience', submenu: [{ label: 'Open the Audience Page in the Browser', click: openAudience }] },
    { role: 'windowMenu' },
  ];
}
