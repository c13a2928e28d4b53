// The audience URL and QR code the console shows. The QR code only shows the LAN address once
// the audience listener really answers there (a server bound to 127.0.0.1 does not): checked
// with a TCP connect, cached for 30 s.

import net from 'node:net';
import QRCode from 'qrcode';
import { lanAddress } from '../show/lan-address.js';

const REACH_CACHE_MS = 30_000;

/**
 * @param {string} address
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function answersOn(address, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: address, port, timeout: 500 });
    const done = (/** @type {boolean} */ ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/**
 * @param {object} options
 * @param {() => number} options.audiencePort
 * @param {() => string | null} options.boundHost the audience listener's bind address, if known
 */
export function createAudienceAddress({ audiencePort, boundHost }) {
  let qrCache = { url: '', svg: '' };
  let reach = { key: '', ok: false, at: 0 };

  return {
    /** The URL phones open, the loopback one, the QR code (SVG) and a warning when phones cannot reach it. */
    async info() {
      const port = audiencePort();
      const bound = boundHost();
      const lan = lanAddress();
      const key = `${lan}:${port}`;
      if (lan && (reach.key !== key || Date.now() - reach.at > REACH_CACHE_MS))
        reach = { key, ok: await answersOn(lan, port), at: Date.now() };
      const reachable = Boolean(lan) && reach.ok;
      const localUrl = `http://127.0.0.1:${port}/`;
      const url = reachable ? `http://${lan}:${port}/` : localUrl;
      if (qrCache.url !== url) qrCache = { url, svg: await QRCode.toString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }) };
      let warning = null;
      if (!lan) warning = 'No network address found: connect this machine to the venue Wi-Fi so phones can reach it.';
      else if (!reachable)
        warning = `The audience listener does not answer on ${lan}${bound ? ` (it is bound to ${bound})` : ''}: phones cannot reach it. Start with --host 0.0.0.0.`;
      return { url, localUrl, lanAddress: reachable ? lan : null, port, qrSvg: qrCache.svg, warning };
    },
  };
}
