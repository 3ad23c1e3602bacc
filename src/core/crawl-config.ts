import { z } from 'zod';

/** The site crawler (`citedocs ingest <url>`): its budget, pacing, politeness, scope and trap limits. */
export const crawlConfigSchema = z
  .strictObject({
    /**
     * Requests at most in one run of a site crawl (a safety against traps); a crawl that
     * reaches it says so and continues where it stopped on the next run. Folders have no
     * budget unless `--max-pages` gives one.
     */
    maxPages: z.number().int().positive().default(10_000),
    /** Links followed from the start page at most; unset: no limit. */
    maxDepth: z.number().int().min(0).optional(),
    /** Requests in flight at once (one site is crawled at a time, so this is per host). */
    concurrency: z.number().int().min(1).max(64).default(4),
    /** Pause between request starts; a robots.txt Crawl-delay raises it (up to 60 s). */
    delayMs: z.number().int().min(0).default(0),
    timeoutMs: z.number().int().positive().default(15_000),
    /** Larger bodies are skipped with an error rather than parsed. */
    maxPageBytes: z.number().int().positive().default(10 * 1024 * 1024),
    maxRedirects: z.number().int().min(0).max(20).default(10),
    /** Retries after a network error, a 429 or a 5xx, with exponential backoff from `retryBaseDelayMs`. */
    retries: z.number().int().min(0).max(10).default(2),
    retryBaseDelayMs: z.number().int().min(0).default(500),
    /** A Retry-After longer than this fails the request instead of stalling the crawl. */
    maxRetryAfterMs: z.number().int().min(0).default(60_000),
    /** Sent with every request; its product token (before the first "/") is matched in robots.txt. */
    userAgent: z.string().min(1).default('citedocs/0.1 (+https://github.com/citedocs/citedocs)'),
    respectRobots: z.boolean().default(true),
    /** Also crawl the pages listed in sitemaps and llms.txt. */
    useSitemaps: z.boolean().default(true),
    /** Globs on the URL path (`/docs/api/**`): only matching pages are crawled, when given. */
    include: z.array(z.string().min(1)).default([]),
    /** Globs on the URL path (`/docs/ja/**`): matching pages are never crawled. */
    exclude: z.array(z.string().min(1)).default([]),
    /**
     * Hosts besides the start URL's that the start URL may redirect to (`docs.example.com`, or
     * `host:port`). Any other host is never requested: a redirect there is reported, not followed.
     */
    allowedHosts: z.array(z.string().min(1)).default([]),
    /**
     * Let the start host (and `allowedHosts`) be on a private, link-local or unique-local
     * network: a docs site on an intranet. Loopback start URLs (127.0.0.1, localhost) need no
     * flag; no other host may ever resolve to a non-public address.
     */
    allowPrivateHosts: z.boolean().default(false),
    /**
     * Run each HTML page's scripts in headless Chromium before extraction (`ingest --render`),
     * for sites that build their content with JavaScript. Slower: use it for such sites only.
     */
    render: z.boolean().default(false),
    /** Budget of one rendered page: loading it, then waiting until its network is idle; what is built by then is kept. */
    renderTimeoutMs: z.number().int().positive().default(20_000),
    /** Pages rendered at once (each is a Chromium renderer process, a few tens of MB). */
    renderConcurrency: z.number().int().min(1).max(16).default(2),
    /** The Chromium (or Chrome) executable `--render` drives. */
    browserPath: z.string().min(1).default('/usr/bin/chromium'),
    /** Longer URLs are never requested: a path that grows with every link is a crawler trap. */
    maxUrlLength: z.number().int().min(64).default(2048),
    /** URLs whose path holds one segment more often than this are never requested (`/a/b/a/b/a/b/a/b`). */
    maxRepeatedSegments: z.number().int().min(1).default(3),
    /**
     * How long an ingest worker of a shared crawl (several `citedocs ingest` on one PostgreSQL
     * database) holds the URLs it took without renewing: a killed worker's URLs go to the
     * others after this.
     */
    leaseMs: z.number().int().min(100).default(60_000),
  })
  .prefault({});
