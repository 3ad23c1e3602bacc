import { defineConfig } from 'vitest/config';
import { useRunTmpdir } from './src/testing/test-tmpdir.js';

// The first load of this config, in the main process before any worker starts, makes the run's temporary folder; later loads reuse it.
useRunTmpdir();

/** Tests under src/ that drive Chromium (installed by .ci/run with apt): integration, beside test/. */
const BROWSER_TESTS = ['src/sources/render/chromium-renderer.test.ts', 'src/sources/crawl/crawler-render.test.ts'];

/**
 * Two projects: `unit` (src/, next to the code: no apt packages, no browser, servers only on
 * 127.0.0.1) and `integration` (test/: the CLI end to end, real documentation sites from apt,
 * Chromium, network namespaces). `npm test` runs both; `npm run test:unit` is the fast loop.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: BROWSER_TESTS } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts', ...BROWSER_TESTS] } },
    ],
  },
});
