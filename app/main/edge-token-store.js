// The edge publish token, kept between runs of the desktop app only in encrypted form: Electron's
// safeStorage (macOS Keychain, Windows DPAPI, the Linux secret service) encrypts it and the
// ciphertext goes into settings.json as `edgeTokenEncrypted`. Where safeStorage cannot really
// encrypt — not available, or Linux's 'basic_text' fallback, a fixed key — the token is not
// stored at all and the console says so (docs/how-to/desktop-app.md, docs/explanation/threat-model.md#the-desktop-apps-stored-secrets).

/**
 * @typedef {object} SafeStorage Electron's safeStorage (or the test fake)
 * @property {() => boolean} isEncryptionAvailable
 * @property {(text: string) => Buffer} encryptString
 * @property {(data: Buffer) => string} decryptString
 * @property {() => string} [getSelectedStorageBackend] Linux only
 */

export const TOKEN_NOT_SAVED =
  'The edge token is not saved: this system offers no encrypted storage for it (Electron safeStorage). Type it again after a restart.';

/**
 * @param {{ safeStorage: SafeStorage | undefined, platform?: string, warn?: (msg: string) => void }} deps
 */
export function createEdgeTokenStore({ safeStorage, platform = process.platform, warn = () => {} }) {
  const canEncrypt = () => {
    if (!safeStorage?.isEncryptionAvailable()) return false;
    // On Linux without a keyring Chromium falls back to a hard-coded key: that is not a secret store.
    return !(platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text');
  };

  return {
    canEncrypt,
    /**
     * Encrypt a token for settings.json, or null when it must not be stored.
     * @param {string} token
     * @returns {string | null} base64 ciphertext
     */
    seal(token) {
      if (!token || !canEncrypt()) return null;
      try {
        return safeStorage.encryptString(token).toString('base64');
      } catch (err) {
        warn(`could not encrypt the edge token: ${err.message}`);
        return null;
      }
    },
    /**
     * @param {string | null} sealed base64 ciphertext from settings.json
     * @returns {string | null} the token, or null when it cannot be decrypted here
     */
    open(sealed) {
      if (!sealed || !canEncrypt()) return null;
      try {
        return safeStorage.decryptString(Buffer.from(sealed, 'base64')) || null;
      } catch (err) {
        warn(`the saved edge token cannot be decrypted (${err.message}); type it again in the console`);
        return null;
      }
    },
  };
}
