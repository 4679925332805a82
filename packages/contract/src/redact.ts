import { RE2JS } from 're2js';

// Token secrets are never stored or echoed: every text the server keeps (application-log records and their details,
// usage records, call records) or sends back in an error body passes through redactSecrets first, which replaces
// anything shaped like a Data Lab token with a marker that keeps only its kind (`dlp_[redacted]`).
//
// The shape is the scanner pattern of the token format (`TOKEN_PATTERN_SOURCE` in api/tokens.ts), widened on purpose:
// no word boundaries and any longer run of base62 characters, so a secret glued to other letters (`xdlp_…`,
// `dlp_…abc`) is caught too. Nothing is checked against the checksum: a look-alike costs a marker, a miss a leak.
// The match runs on re2js (RE2 semantics, linear in the text's length), since the texts come from anyone.

/** What stands for a secret's 46 characters once it is redacted. */
export const REDACTED = '[redacted]';

const TOKEN_SHAPE = RE2JS.compile('dl[pc]_[0-9A-Za-z]{46,}');

/** The text with every token-shaped run replaced by its prefix and REDACTED. */
export function redactSecrets(text: string): string {
  // Most texts hold no token prefix at all: a substring search is the whole cost for them.
  if (!text.includes('dlp_') && !text.includes('dlc_')) return text;
  // Matches may overlap: a look-alike's run can end in the next token's `dlp`, before its `_` (`dlp_…dlp_<secret>`).
  // So each search starts one character after the previous match's start, and what is redacted is the union of the
  // runs after each prefix. Runs of different matches never share a character (a prefix's `_` ends a run), so the
  // searches together read the text a bounded number of times.
  const matcher = TOKEN_SHAPE.matcher(text);
  let out = '';
  let kept = 0;
  let from = 0;
  while (from < text.length && matcher.find(from)) {
    const start = matcher.start();
    const end = matcher.end();
    if (end > kept) {
      // The prefix is kept (unless an earlier run already covered it), the run becomes the marker.
      const bodyStart = Math.max(kept, start + 4);
      out += text.slice(kept, bodyStart) + REDACTED;
      kept = end;
    }
    from = start + 1;
  }
  return out + text.slice(kept);
}

/**
 * A JSON-like value with redactSecrets applied to every string in it (object keys included), at any depth up to
 * 32 levels (deeper values are replaced by a marker: nothing unread is kept). Returns the value itself when it holds
 * nothing to redact.
 */
export function redactDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (depth > 32) return '[too deep]' as T;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const redacted = redactDeep(item, depth + 1);
      if (redacted !== item) (copy ??= [...value])[index] = redacted;
    });
    return (copy ?? value) as T;
  }
  if (value instanceof Date) return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const redactedKey = redactSecrets(key);
    const redacted = redactDeep(item as unknown, depth + 1);
    if (redactedKey !== key || redacted !== item) changed = true;
    return [redactedKey, redacted] as const;
  });
  return (changed ? Object.fromEntries(entries) : value) as T;
}

/** Longest id an error body repeats (a requested uid, a pasted string): longer ones are cut with an ellipsis. */
export const ECHOED_ID_MAX_LENGTH = 64;

/** An id as an error message may repeat it: redacted first (a cut must not leave most of a secret), then capped. */
export function echoedId(id: string | number): string {
  const text = redactSecrets(String(id));
  return text.length > ECHOED_ID_MAX_LENGTH ? `${text.slice(0, ECHOED_ID_MAX_LENGTH - 1)}…` : text;
}
