/**
 * The live page's Web Worker (bundled by scripts/build-browser.mjs into site/playground/study-worker.js):
 * posts `{ type: 'ready', version, policies }` (ids, names, options), then receives `{ settings }`, runs the study off the page's thread and posts `{ type: 'run', run, done,
 * total }` after each run, then `{ type: 'done', runs, version, ms }`, or `{ type: 'error', message }`.
 */
import { policyIds, policyInfo } from '../policies/index.js';
import { VERSION } from '../version.js';
import { type PlaygroundSettings, runPlaygroundStudy } from './playgroundStudy.js';

interface WorkerScope {
  onmessage: ((e: { data: { settings: PlaygroundSettings } }) => void) | null;
  postMessage(message: unknown): void;
}
const scope = globalThis as unknown as WorkerScope;

// what the page can offer: each policy's display name, whether it is private, and its options
scope.postMessage({
  type: 'ready',
  version: VERSION,
  policies: policyIds.map((id) => ({
    id,
    name: policyInfo(id).displayName,
    isPrivate: policyInfo(id).isPrivate,
    options: policyInfo(id).options,
  })),
});

scope.onmessage = (e) => {
  const t0 = performance.now();
  try {
    const runs = runPlaygroundStudy(e.data.settings, (run, done, total) =>
      scope.postMessage({ type: 'run', run, done, total }),
    );
    scope.postMessage({ type: 'done', runs, version: VERSION, ms: performance.now() - t0 });
  } catch (err) {
    scope.postMessage({ type: 'error', message: (err as Error).message });
  }
};
