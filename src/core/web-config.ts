import { z } from 'zod';

/**
 * Official documentation hosts (languages, runtimes, frameworks, vendors): preferred over blogs
 * and Q&A copies of equal relevance. A host matches its subdomains too. `web.domainWeights`
 * adds to and overrides these; `web.defaultDomainWeights: false` drops them.
 */
const OFFICIAL_DOCS_HOSTS = [
  'developer.mozilla.org', 'tc39.es', 'html.spec.whatwg.org', 'w3.org', 'nodejs.org', 'deno.com', 'bun.sh', 'typescriptlang.org',
  'react.dev', 'vuejs.org', 'angular.dev', 'svelte.dev', 'nextjs.org', 'vite.dev', 'webpack.js.org', 'expressjs.com', 'fastify.dev', 'docs.npmjs.com',
  'docs.python.org', 'peps.python.org', 'docs.djangoproject.com', 'flask.palletsprojects.com', 'numpy.org', 'pandas.pydata.org', 'docs.scipy.org',
  'scikit-learn.org', 'pytorch.org', 'tensorflow.org', 'doc.rust-lang.org', 'docs.rs', 'pkg.go.dev', 'go.dev', 'en.cppreference.com',
  'learn.microsoft.com', 'docs.oracle.com', 'docs.spring.io', 'kotlinlang.org', 'developer.android.com', 'developer.apple.com', 'docs.swift.org',
  'dart.dev', 'api.flutter.dev', 'ruby-doc.org', 'api.rubyonrails.org', 'php.net', 'hexdocs.pm', 'docs.julialang.org', 'perldoc.perl.org',
  'man7.org', 'postgresql.org', 'dev.mysql.com', 'sqlite.org', 'redis.io', 'docs.docker.com', 'kubernetes.io', 'git-scm.com', 'docs.github.com',
  'docs.aws.amazon.com', 'cloud.google.com',
];
export const DEFAULT_DOMAIN_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({
  ...Object.fromEntries(OFFICIAL_DOCS_HOSTS.map((host) => [host, 1.3])),
  'readthedocs.io': 1.15,
});

/** The web documentation finder (`citedocs web`): search, fetch, score, select. */
export const webConfigSchema = z
  .strictObject({
    /** DuckDuckGo's HTML endpoint, or any server answering the same way. */
    searchUrl: z.string().url().default('https://html.duckduckgo.com/html/'),
    /** DuckDuckGo's region code (`kl`): `us-en`, `de-de`, … `wt-wt` is no region. */
    region: z.string().min(1).default('wt-wt'),
    safeSearch: z.enum(['strict', 'moderate', 'off']).default('moderate'),
    /** Search results examined (fetched and scored) at most. */
    maxPages: z.number().int().min(1).max(50).default(10),
    /** Pages returned at most. */
    maxSelectedPages: z.number().int().min(1).default(5),
    /** Token budget of the whole output (page texts and their headers), counted with the target tokenizer. */
    maxTotalTokens: z.number().int().positive().default(6000),
    /** Pages less relevant than this (in [0, 1]) are dropped. */
    scoreThreshold: z.number().min(0).max(1).default(0.15),
    /** A page this similar (shared words, or vectors with an embedder) to a selected one is a near-duplicate. */
    similarityThreshold: z.number().min(0).max(1).default(0.9),
    /** Host → score multiplier, added to (and overriding) the official documentation hosts. */
    domainWeights: z.record(z.string().min(1), z.number().min(0)).default({}),
    /** Start from the built-in list of official documentation hosts (weight 1.3). */
    defaultDomainWeights: z.boolean().default(true),
    /** Newer pages (Last-Modified) score up to 1 + weight times more. */
    freshness: z.strictObject({ weight: z.number().min(0).default(0.1), halfLifeDays: z.number().positive().default(730) }).prefault({}),
    /** Fetch pages on loopback, private, link-local (cloud metadata) addresses. Off: refused after DNS and after every redirect. */
    allowPrivateHosts: z.boolean().default(false),
    respectRobots: z.boolean().default(true),
    /** Sent to the search endpoint (DuckDuckGo challenges non-browser agents); pages get crawl.userAgent. */
    searchUserAgent: z.string().min(1).default('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'),
    /** Tries per results page when the search engine rate limits, and the first pause (doubling). */
    searchAttempts: z.number().int().min(1).max(5).default(3),
    searchBackoffMs: z.number().int().min(0).default(2000),
    concurrency: z.number().int().min(1).max(32).default(6),
    perHostConcurrency: z.number().int().min(1).max(8).default(2),
    timeoutMs: z.number().int().positive().default(10_000),
    maxPageBytes: z.number().int().positive().default(5 * 1024 * 1024),
    /** Fragments per page an LLM judges (the best by lexical coverage). */
    fragmentsPerPage: z.number().int().min(1).max(10).default(3),
    cache: z
      .strictObject({
        enabled: z.boolean().default(true),
        /** Default: $XDG_CACHE_HOME/citedocs/web-cache.db (~/.cache/citedocs/web-cache.db). */
        path: z.string().min(1).optional(),
        /** Search results and pages younger than this are used without a request. */
        ttlSeconds: z.number().int().min(0).default(86_400),
        /** A failed fetch is remembered this long. */
        failureTtlSeconds: z.number().int().min(0).default(900),
      })
      .prefault({}),
  })
  .prefault({});
