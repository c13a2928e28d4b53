// The console's view of the musicians' part pages (docs/how-to/part-pages.md#part-pages), on the control
// listener behind its token: GET /api/parts gives the part-page URL with its key and a QR code of
// it (the second code in the console, separate from the audience's), the score's parts, and the
// part pages open now — which part, clock-sync round trip and bound, transport, last seen — so the
// composer sees the band is ready before pressing Play. POST /api/parts/key replaces the key
// (docs/reference/part-key.md): every tablet must scan the new code.

import QRCode from 'qrcode';
import { lanAddress } from '../show/lan-address.js';

const WILDCARD = new Set(['0.0.0.0', '::']);

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {{ show: any, audiencePort: () => number, partKey: import('../parts/part-key.js').PartKey, partPages: ReturnType<typeof import('../parts/part-pages.js').createPartPages>, audienceHost: string, log?: { info: (msg: string) => void } }} options
 */
export default async function consoleParts(app, { show, audiencePort, partKey, partPages, audienceHost, log }) {
  let qr = { url: '', svg: '' };

  /** Tablets reach the venue listener on the LAN address when it listens there, else only this machine can. */
  function partUrl() {
    const lan = lanAddress();
    const onLan = lan !== null && (WILDCARD.has(audienceHost) || audienceHost === lan);
    const host = onLan ? lan : audienceHost.includes(':') ? `[${audienceHost}]` : WILDCARD.has(audienceHost) ? '127.0.0.1' : audienceHost;
    return { url: `http://${host}:${audiencePort()}/part/${partKey.key}/`, onLan };
  }

  /** The part-page URL with its QR code (made again only when the URL changed). */
  async function linkWithCode() {
    const { url, onLan } = partUrl();
    if (qr.url !== url) qr = { url, svg: await QRCode.toString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }) };
    return { url, onLan, qrSvg: qr.svg };
  }

  // A photographed or lost key: a new random one; the old one is refused from now on and the
  // part pages open with it are disconnected (part-key.js, routes/part-stream.js).
  app.post('/api/parts/key', async () => {
    await partKey.rotate();
    log?.info('part-page key replaced: the musicians scan the new code');
    return linkWithCode();
  });

  app.get('/api/parts', async () => {
    const { url, onLan, qrSvg } = await linkWithCode();
    const score = show.engine.score();
    const names = new Map((score.parts ?? []).map((p) => [p.id, p.name ?? p.id]));
    return {
      url,
      onLan,
      qrSvg,
      parts: (score.parts ?? []).map((p) => ({ id: p.id, name: p.name ?? p.id })),
      pages: partPages.list().map((p) => ({
        id: p.id,
        part: p.part,
        partName: p.part === '*' ? 'All parts' : (names.get(p.part) ?? null),
        rtt: p.rtt,
        bound: p.bound,
        transport: p.transport,
        click: p.click,
        address: p.address,
        ago: p.ago,
        gone: p.gone,
      })),
    };
  });
}
