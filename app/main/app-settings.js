// The desktop app's saved settings (settings-store.js) with the edge token sealed by the OS
// keychain (edge-token-store.js): what the show server starts with, and what it changes.

import { createSettingsStore } from './settings-store.js';
import { createEdgeTokenStore, TOKEN_NOT_SAVED } from './edge-token-store.js';

/**
 * @param {object} deps
 * @param {string} deps.dir the user-data folder (settings.json lives there)
 * @param {any} deps.safeStorage Electron's safeStorage (or a fake)
 * @param {(msg: string) => void} deps.warn main's log
 * @param {Record<string, any>} deps.launchOverrides this run's command-line choices
 * @param {() => any} deps.server the show server's process (createServerProcess), once started
 */
export function createAppSettings({ dir, safeStorage, warn, launchOverrides, server }) {
  const store = createSettingsStore({ dir, warn });
  store.load();
  const edgeTokens = createEdgeTokenStore({ safeStorage, warn });

  return {
    store,
    /** The edge mirror as it was left (URL + decrypted token), unless the command line says otherwise. */
    savedEdge() {
      const { edgeUrl, edgeTokenEncrypted } = store.get();
      if (launchOverrides.edgeUrl || !edgeUrl || !edgeTokenEncrypted) return {};
      const edgeToken = edgeTokens.open(edgeTokenEncrypted);
      return edgeToken ? { edgeUrl, edgeToken } : {};
    },
    /**
     * Persist what the console changed; the edge token only encrypted (never in clear).
     * @param {Record<string, any>} change
     */
    save(change) {
      const { edgeToken, ...rest } = change;
      if ('edgeToken' in change) {
        const sealed = typeof edgeToken === 'string' ? edgeTokens.seal(edgeToken) : null;
        if (typeof edgeToken === 'string' && edgeToken && !sealed) {
          // Into the console's Log panel (and from there to main's log), or straight to main's log.
          if (server()?.running()) server().notice(TOKEN_NOT_SAVED);
          else warn(TOKEN_NOT_SAVED);
        }
        rest.edgeTokenEncrypted = sealed;
      }
      store.update(rest);
    },
  };
}
