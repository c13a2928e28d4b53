// Filled in by web/audience/build.js (esbuild `define`) when it builds sw.js.
declare const __VERSION__: string;
declare const __PRECACHE__: string[];
