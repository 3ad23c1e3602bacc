/**
 * Library names and versions as an ingest defaults them: a name from the site's host (or its
 * start page's title when the host says nothing, like 127.0.0.1), a version from the URL path
 * (`/docs/5.2/`, `/v4/`, `/15/`); the ingest falls back to the version the start page names,
 * else `latest`.
 */

/** The spelling names are compared in: lower case, `-`, `_`, `.` and spaces all one `-`. */
export function normaliseLibraryName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s._-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const GENERIC_HOST_WORDS = new Set(['www', 'docs', 'doc', 'documentation', 'api', 'developer', 'developers', 'dev', 'wiki', 'help', 'learn', 'manual', 'readthedocs', 'io', 'org', 'com', 'net', 'dev', 'en']);

/** `docs.pytest.org` → pytest, `libssh.org` → libssh; undefined for an address or localhost (nothing to name it by). */
export function libraryNameFromHost(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const { hostname, protocol } = new URL(url);
  if (protocol === 'file:' || hostname === '' || hostname === 'localhost' || /^[\d.]+$/.test(hostname) || hostname.startsWith('[')) return undefined;
  const labels = hostname.split('.').slice(0, -1).filter((label) => !GENERIC_HOST_WORDS.has(label));
  const name = labels.at(-1) ?? labels[0];
  return name === undefined ? undefined : normaliseLibraryName(name);
}

/** A web server's listing of a folder ("Directory listing for /", "Index of /docs"): it names no library. */
/** The kind of an API page, which a generator's titles start with ("Class: _", "Interface Foo"). */
const KIND_OF_PAGE = /^(?:class|module|namespace|interface|global|function|source|tutorial|mixin|event|external|enum|type|struct|trait|package|crate)$/i;

const FOLDER_LISTING = /^(?:directory listing for|index of)\s+\//i;

/**
 * "pytest documentation" → pytest, "libssh: The SSH library" → libssh, "gnuplot 5.4 manual" →
 * gnuplot, "git(1) Manual Page" → git, "SQLite Home Page" → sqlite, "Crate proc_macro2" →
 * proc-macro2, "JUnit 4.13.2 API" → junit, "Rack, a modular Ruby webserver interface" → rack; undefined for a folder listing or a URL (a page without a title).
 */
export function libraryNameFromTitle(title: string): string | undefined {
  // A page without a title is titled by its URL, which names no library.
  if (FOLDER_LISTING.test(title.trim()) || /^[a-z][a-z\d+.-]*:\/\/\S+$/i.test(title.trim())) return undefined;
  const first = title
    // A name, then what it is: "Rack, a modular Ruby webserver interface".
    .split(/\s[-–—|:]\s|:\s|\s\|\s|,\s+(?:an?|the)\s/i)[0]
    // A man page's section, `git(1)`, is no part of the name.
    ?.replace(/\(\d\w*\)/g, ' ')
    // What a generator calls the one thing documented: rustdoc's "Crate serde", pkgsite's "package http".
    .replace(/^\s*(?:crate|package|module)\s+(?=\S+\s*$)/i, '')
    // A possessive before a word for documentation: "Welcome to SymPy’s documentation!" (not "Let's Encrypt").
    .replace(/(?<=\p{L})['’]s(?=\s+(?:documentation|docs|manual|guide|reference|handbook)\b)/giu, '')
    // "version 7.3.0", "release 2.1": the words go with the number.
    .replace(/(?<![\w-])(?:version|release)\s+(?=v?\d)/gi, ' ')
    .replace(/(?<![\w-])(documentation|docs|manual|reference|guide|api|home|page|welcome to|the)(?![\w-])/gi, ' ')
    // A version, also a series ("2.2.x").
    .replace(/\bv?\d+(\.\d+)*(?:\.x)?\b/gi, ' ')
    .replace(/[^\p{L}\p{N}\s._+#-]+/gu, ' ')
    // What ends a title of the docs as a whole: "Docutils Project Documentation Overview".
    .replace(/(?:\s+(?:project|overview))+\s*$/i, '')
    .trim();
  // A kind of page alone names no library: JSDoc's "Class: _", "Module: widget", "Global".
  if (first === undefined || first === '' || KIND_OF_PAGE.test(first)) return undefined;
  const all = first.split(/\s+/);
  // A GNU program goes by its own name ("GNU Octave", "GNU Make"); "GNU Scientific Library" keeps it.
  const named = all.length === 2 && all[0] === 'GNU' ? all.slice(1) : all;
  const words = named.slice(0, 3).join(' ');
  const name = normaliseLibraryName(words);
  return name === '' ? undefined : name;
}

/** The last folder of a path (a local folder's name) as a library name. */
export function libraryNameFromPath(path: string): string | undefined {
  const parts = path.split(/[\\/]+/).filter((part) => part !== '' && part !== '.' && !/^(docs?|documentation|html|site|build|public)$/i.test(part));
  const last = parts.at(-1);
  return last === undefined ? undefined : normaliseLibraryName(last) || undefined;
}

const VERSION_SEGMENT = /^v?(\d+(?:\.\d+){0,2}|\d+\.x)$/i;
/** Folders that name a channel or a language, not a library: `/en/stable/`, `/latest/`. */
const CHANNEL_SEGMENT = /^(?:latest|stable|current|master|main|dev|next|[a-z]{2}(?:[-_][a-z]{2})?)$/i;

/** The last folder of a site's start URL that names something (`/widgetlib/5.2/en/index.html` → widgetlib); undefined when none does. */
export function libraryNameFromUrlPath(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const folders = new URL(url).pathname.split('/').slice(0, -1).map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  const named = folders.filter((segment) => segment !== '' && !VERSION_SEGMENT.test(segment) && !CHANNEL_SEGMENT.test(segment));
  return named.length === 0 ? undefined : libraryNameFromPath(named.join('/'));
}

/** A version in the URL's path: `/docs/5.2/` → 5.2, `/v4/` → 4, `/15/` → 15; the last such folder wins. */
export function versionFromUrl(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const segments = new URL(url).pathname.split('/').slice(0, -1);
  let found: string | undefined;
  for (const segment of segments) {
    const match = VERSION_SEGMENT.exec(segment);
    if (match?.[1] !== undefined) found = match[1];
  }
  return found;
}
