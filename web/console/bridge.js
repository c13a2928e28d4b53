// The desktop app's preload API (window.tutti, see app/preload/index.cjs), or null when the
// console runs in an ordinary browser. Everything else in the console is the same code.

/**
 * @typedef {object} TuttiBridge
 * @property {() => Promise<string | null>} openScoreDialog
 * @property {() => Promise<{ version: string, platform: string, settingsPath: string }>} appInfo
 * @property {(listener: (status: any) => void) => () => void} onServerStatus
 * @property {(listener: (command: { command: string, path?: string }) => void) => () => void} onMenuCommand
 */

/** @type {TuttiBridge | null} */
export const bridge = /** @type {any} */ (window).tutti ?? null;
