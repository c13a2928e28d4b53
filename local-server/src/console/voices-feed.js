// The console's view of the audience's voices (docs/reference/audience-protocol.md#audience-voices): the current
// prompt's round and the reaction level, sent on the console's live feed (`voices` events) as soon
// as a published state changes them, so the composer sees the tally when the phones do.

/**
 * @param {object} options
 * @param {{ events: import('node:events').EventEmitter }} options.show
 * @param {{ status: () => unknown } | undefined} options.votes
 * @param {{ status: () => unknown } | undefined} options.reactions
 * @param {(event: string, data: Record<string, unknown>) => void} options.broadcast
 */
export function createVoicesFeed({ show, votes, reactions, broadcast }) {
  const current = () => ({ vote: votes?.status() ?? null, reaction: reactions?.status() ?? null });
  let last = '';
  const onEnvelope = () => {
    const now = current();
    const json = JSON.stringify(now);
    if (json === last) return;
    last = json;
    broadcast('voices', now);
  };
  show.events.on('envelope', onEnvelope);
  return { current, close: () => show.events.off('envelope', onEnvelope) };
}
