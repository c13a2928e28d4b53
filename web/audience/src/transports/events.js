// The callbacks every transport reports to (documentation only: no code).

/**
 * @typedef {object} TransportEvents
 * @property {() => void} onOpen connected (nothing received yet)
 * @property {(envelope: unknown, receivedAt: number) => void} onEnvelope one state-stream envelope
 * @property {(pong: unknown, receivedAt: number) => void} onPong a clock-sync answer (WebSocket only)
 * @property {(reply: unknown) => void} [onVoted] the answer to a vote (WebSocket only; docs/reference/audience-protocol.md#audience-voices)
 * @property {(reason: string) => void} onClose closed or failed by itself (never called after close())
 *
 * @typedef {object} TransportHandle
 * @property {'ws' | 'sse' | 'poll'} name
 * @property {boolean} canPing true when clock pings can go over this transport
 * @property {(frame: object) => void} send
 * @property {() => void} resync ask for a fresh snapshot
 * @property {() => boolean} isOpen
 * @property {() => void} close
 */

export {};
