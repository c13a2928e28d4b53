// A streaming text/event-stream parser (the WHATWG "interpret an event stream" rules, reduced
// to what Tutti uses): feed it decoded text chunks in any split, get one callback per event.

/**
 * @typedef {{ id: string | null, event: string, data: string }} SseEvent
 */

/**
 * @param {(event: SseEvent) => void} onEvent
 * @returns {{ push: (chunk: string) => void, lastEventId: () => string | null }}
 */
export function createSseParser(onEvent) {
  let buffer = '';
  let data = [];
  let event = '';
  let lastEventId = null;
  let sawCr = false;
  const EOL = /\r\n|\r|\n/g; // per parser: lastIndex is state

  function line(text) {
    if (text === '') {
      if (data.length > 0) onEvent({ id: lastEventId, event: event || 'message', data: data.join('\n') });
      data = [];
      event = '';
      return;
    }
    if (text.charCodeAt(0) === 58) return; // ":" comment (heartbeat)
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    else if (field === 'event') event = value;
    // retry: the caller decides its own reconnect delay
  }

  return {
    push(chunk) {
      let text = chunk;
      // A CRLF split across chunks: the LF belongs to the line the CR already ended.
      if (sawCr && text.charCodeAt(0) === 10) text = text.slice(1);
      sawCr = false;
      // The unfinished line already in the buffer has no line break: scan only the new text.
      EOL.lastIndex = buffer.length;
      buffer += text;
      let start = 0;
      let m;
      while ((m = EOL.exec(buffer)) !== null) {
        line(buffer.slice(start, m.index));
        start = m.index + m[0].length;
        if (m[0] === '\r' && start === buffer.length) sawCr = true;
      }
      buffer = buffer.slice(start);
    },
    lastEventId: () => lastEventId,
  };
}
