import { afterEach, beforeEach, describe } from 'vitest';
import { catalogContract } from './contract/catalog.contract.js';
import { crawlStateContract } from './contract/crawl-state.contract.js';
import { pagesContract } from './contract/pages.contract.js';
import { textSearchContract } from './contract/text-search.contract.js';
import { vectorsContract } from './contract/vectors.contract.js';
import type { Store } from './store.js';

/**
 * The behaviour every Store backend shares; each backend (SQLite, PostgreSQL) runs this suite
 * with a factory that gives a handle on a new, empty index (created, so it can be read at once).
 * Nothing here knows how a backend keeps its data.
 */
export function runStoreContract(name: string, make: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });
    // The suites are declared once, before any test opens a handle: they get a stand-in that
    // forwards every call to the handle of the test that runs.
    const current = new Proxy({} as Store, {
      get: (_target, key) => {
        const value: unknown = Reflect.get(store, key);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(store) : value;
      },
    });
    pagesContract(current);
    textSearchContract(current);
    crawlStateContract(current);
    catalogContract(current);
    vectorsContract(current);
  });
}
