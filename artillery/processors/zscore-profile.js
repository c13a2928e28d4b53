// zscore-profile.yml runs three of the phone types in one script (one `processor` per script):
// re-export them rather than copy them.
export * from './page-load.js';
export * from './ws-viewer.js';
export * from './poll-viewer.js';
