/**
 * The one redaction of credentials in text that is shown: a URL's password becomes `***`
 * (`postgres://user:***@host/db`), as does a `password=` query parameter. Works on a bare URL
 * (`--db`, CITEDOCS_DB, config.dbPath) and on any message that quotes one (an error, a log
 * line), so every output path can pass its text through it. A path or text without
 * credentials comes back unchanged.
 */
export function redactPasswords(text: string): string {
  return (
    text
      // scheme://user:password@ — the password runs to the last `@` before the host (a raw `@` in it included).
      .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*):[^\s/?#]*@/gi, '$1:***@')
      .replace(/([?&]password=)[^&\s#]*/gi, '$1***')
  );
}
