/**
 * The browser build's `version.ts` (scripts/build-browser.mjs swaps it in): the version is written
 * into the bundle at build time, as a browser has no package.json to read.
 */
declare const __ADAPRIVATE_VERSION__: string;

/** The package version, from package.json at bundle time. */
export const VERSION: string = __ADAPRIVATE_VERSION__;
