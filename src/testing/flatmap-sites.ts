import type { HostRoutes } from './fake-web.js';

/** The pages of the web-finder scenario: who plays which part. Paths on the fake sites. */
export const FLATMAP_PAGES = {
  blog: 'http://blog.example.test/posts/flatmap-explained',
  mirrorA: 'http://mirror-a.example.test/manual/array-flat.html',
  official: 'http://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array/flatMap',
  slow: 'http://slow.example.test/flatmap',
  mirrorB: 'http://mirror-b.example.test/js/array-flat.html',
  big: 'http://big.example.test/guide/arrays',
  unrelated: 'http://graphs.example.test/graph-databases',
  missing: 'http://gone.example.test/flatmap',
  disallowed: 'http://closed.example.test/flatmap',
  pdf: 'http://papers.example.test/flatmap.pdf',
} as const;

const page = (title: string, body: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a> · <a href="/about">About</a></nav><main>${body}</main><footer>© Example</footer></body></html>`;

const official = page(
  'Array.prototype.flatMap() - JavaScript | MDN',
  `<h1 id="array-prototype-flatmap">Array.prototype.flatMap()</h1>
<p>The <code>flatMap()</code> method of Array instances returns a new array formed by applying a given callback function to each element of the array, and then flattening the result by one level. It is identical to a <code>map()</code> followed by a <code>flat()</code> of depth 1, but slightly more efficient than calling those two methods separately.</p>
<h2 id="syntax">Syntax</h2><pre><code class="language-js">flatMap(callbackFn)
flatMap(callbackFn, thisArg)</code></pre>
<h3 id="parameters">Parameters</h3><p><code>callbackFn</code>: a function to execute for each element in the array. It should return an array containing new elements of the new array, or a single non-array value to be added to the new array. <code>thisArg</code>: a value to use as <code>this</code> when executing callbackFn.</p>
<h3 id="return-value">Return value</h3><p>A new array with each element being the result of the callback function and flattened by a depth of 1.</p>
<h2 id="description">Description</h2><p>The flatMap() method is an iterative method. See Array.prototype.map() for a detailed description of the callback function. The flatMap() method is identical to map(callbackFn, thisArg) followed by flat(1): for each element, it produces an array of new elements, and concatenates the resulting arrays together to form a new array.</p>
<h2 id="examples">Examples</h2><pre><code class="language-js">const arr1 = [1, 2, 1];
const result = arr1.flatMap((num) => (num === 2 ? [2, 2] : 1));
console.log(result); // [1, 2, 2, 1]</code></pre>`,
);

const blog = page(
  'Array.prototype.flatMap() explained with examples - Dev Blog',
  `<h1 id="title">Array.prototype.flatMap()</h1>
<p>Last week a reader asked how the <code>flatMap()</code> method of Array instances works. In short, flatMap calls your callback function on every element of the array, and then flattens what the callback returned by one level into a new array. Think of it as map() and flat() in a single pass.</p>
<h2 id="how-it-works">How flatMap works</h2><pre><code class="language-js">arr.flatMap(callbackFn)
arr.flatMap(callbackFn, thisArg)</code></pre>
<p>The callback receives each element and returns either an array of values to splice in, or a single value. Whatever comes back is flattened by a depth of 1 into the new array; deeper nesting is kept.</p>
<h2 id="when">When should you reach for it?</h2><p>Use flatMap when one input element can become zero, one or several output elements: splitting sentences into words, dropping items by returning an empty array, or expanding a record into rows. I find it reads better than chaining map() and flat() myself.</p>
<pre><code class="language-js">const words = ["it's sunny", "in LA"].flatMap((s) => s.split(" "));
console.log(words); // ["it's", "sunny", "in", "LA"]</code></pre>
<p>Thanks for reading! Subscribe to the newsletter for more JavaScript tips every week.</p>`,
);

const manual = (host: string) =>
  page(
    `Array.prototype.flat() — JavaScript reference (${host})`,
    `<h1 id="array-prototype-flat">Array.prototype.flat()</h1>
<p>The flat() method of Array instances creates a new array with all sub-array elements concatenated into it recursively up to the specified depth. To map each element and flatten the result by one level in one step, use flatMap().</p>
<h2 id="syntax">Syntax</h2><pre><code class="language-js">flat()
flat(depth)</code></pre>
<h3 id="parameters">Parameters</h3><p><code>depth</code>: the depth level specifying how deep a nested array structure should be flattened. Defaults to 1.</p>
<h3 id="return-value">Return value</h3><p>A new array with the sub-array elements concatenated into it.</p>
<h2 id="description">Description</h2><p>The flat() method is a copying method. It does not alter this but instead returns a shallow copy that contains the same elements as the ones from the original array. The flat() method removes empty slots if the array being flattened is sparse. Related: Array.prototype.flatMap(), Array.prototype.map().</p>
<h2 id="examples">Examples</h2><pre><code class="language-js">const arr1 = [1, 2, [3, 4]];
arr1.flat(); // [1, 2, 3, 4]</code></pre>
<p>${host === 'mirror-b.example.test' ? 'Mirrored from the JavaScript reference; last synchronised this month.' : 'Copy of the JavaScript reference.'}</p>`,
  );

/** A long guide: one section on flatMap among many on other array methods, far over any small budget. */
const big = page(
  'The complete guide to JavaScript arrays',
  [
    `<h1 id="guide">The complete guide to JavaScript arrays</h1><p>Everything about arrays, method by method.</p>`,
    ...['push', 'pop', 'shift', 'unshift', 'slice', 'splice', 'concat', 'join', 'reverse', 'sort', 'indexOf', 'includes', 'find', 'filter', 'reduce', 'some', 'every', 'forEach', 'fill', 'copyWithin'].map(
      (method) =>
        `<h2 id="${method.toLowerCase()}">Array.prototype.${method}()</h2><p>${`The ${method}() method is one of the array methods every program uses; this section walks through its arguments, its return value, how it treats holes, how it behaves on array-like objects, and the mistakes people make with it. `.repeat(8)}</p>`,
    ),
    `<h2 id="flatmap">Array.prototype.flatMap()</h2><p>flatMap() maps each element with a callback function and flattens the result by one level: Array.prototype.flatMap(callbackFn, thisArg) is map() then flat(1) in one pass.</p><pre><code class="language-js">[1, 2, 3].flatMap((x) => [x, x * 2]); // [1, 2, 2, 4, 3, 6]</code></pre>`,
  ].join('\n'),
);

const unrelated = page(
  'Graph databases in the browser',
  `<h1 id="graphs">Graph databases in the browser</h1><p>A survey of client-side graph databases: storage in IndexedDB, query languages, traversal performance and synchronisation with a server. Nodes and edges are stored as records; indexes make neighbour lookups fast.</p>`,
);

const path = (url: string) => new URL(url).pathname;
const host = (url: string) => new URL(url).hostname;

/** The sites of the scenario, by host and path, each with a robots.txt; `closed.example.test` disallows citedocs. */
export function flatmapSites(): HostRoutes {
  const robots = { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' };
  const routes: HostRoutes = {};
  const add = (url: string, route: HostRoutes[string][string]) => {
    routes[host(url)] ??= { '/robots.txt': robots };
    (routes[host(url)] as HostRoutes[string])[path(url)] = route;
  };
  add(FLATMAP_PAGES.official, { body: official, headers: { 'last-modified': 'Mon, 02 Nov 2026 10:00:00 GMT', etag: '"mdn-1"' } });
  add(FLATMAP_PAGES.blog, { body: blog, headers: { 'last-modified': 'Mon, 02 Nov 2026 10:00:00 GMT' } });
  add(FLATMAP_PAGES.mirrorA, { body: manual('mirror-a.example.test') });
  add(FLATMAP_PAGES.mirrorB, { body: manual('mirror-b.example.test') });
  add(FLATMAP_PAGES.slow, 'hang');
  add(FLATMAP_PAGES.big, { body: big });
  add(FLATMAP_PAGES.unrelated, { body: unrelated });
  add(FLATMAP_PAGES.disallowed, { body: official });
  (routes[host(FLATMAP_PAGES.disallowed)] as HostRoutes[string])['/robots.txt'] = { type: 'text/plain', body: 'User-agent: citedocs\nDisallow: /\n' };
  add(FLATMAP_PAGES.pdf, { type: 'application/pdf', body: '%PDF-1.7 flatMap' });
  routes[host(FLATMAP_PAGES.missing)] = { '/robots.txt': robots };
  return routes;
}
