// The parts of one show engine (core/engine/engine.js) as its modules see them: each part owns
// its own mutable state (the position record, the transport, the tempo, the loaded score) and
// reads the others through this one record, filled in by createShowEngine. Types only.

/**
 * @typedef {'stopped' | 'playing' | 'paused'} Transport
 *
 * @typedef {object} ShowEvents what the engine tells its owner
 * @property {(state: Record<string, unknown>) => void} onState every audience state change
 * @property {(beat: { bar: number, beat: number, beats: number, bpm: number, at: number, index: number }) => void} onBeat every beat, ahead of time
 * @property {(cue: { address: string, args: Array<number | string | boolean>, at: number, cue: number }) => void} onOscCue OSC cues, ahead of time
 * @property {(transport: Transport) => void} onTransport every transport change
 * @property {(click: any) => void} onCountIn a count-in's clicks, ahead of time, or its cancellation
 *
 * @typedef {object} LoadedScore the score being played and what is derived from it, replaced whole by load()
 * @property {import('./score-plan.js').ScorePlan} plan
 * @property {any} score
 * @property {import('#core/score/timeline.js').Timeline} timeline
 * @property {Map<string, any>} assets
 * @property {import('#core/score/cue-index.js').CueIndex} cueIndex
 * @property {ReturnType<typeof import('./flywheel-window.js').createFlywheelWindow>} flywheel while playing: `segment` and `ahead`
 *
 * @typedef {object} ShowContext
 * @property {() => number} now
 * @property {number} lookaheadMs
 * @property {(fn: () => void, ms: number) => unknown} setTimer
 * @property {(handle: unknown) => void} clearTimer
 * @property {ShowEvents} events
 * @property {LoadedScore} loaded
 * @property {import('./show-position.js').ShowPosition} at
 * @property {import('./engine-transport.js').TransportState} transport
 * @property {import('./engine-tempo.js').TempoState} tempo
 * @property {ReturnType<typeof import('./rehearsal-controls.js').createRehearsalControls>} rehearsal
 * @property {ReturnType<typeof import('./beat-clock.js').createBeatClock>} clock
 * @property {ReturnType<typeof import('./engine-branch.js').createBranch>} branch
 * @property {() => void} emitState publish the audience state
 */

export {};
