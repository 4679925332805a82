import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';
import { patternMessages } from './messages.ts';

// A string parameter's pattern is RE2 syntax and runs on re2js, an automaton that reads a value once: there is no
// backtracking, so no pattern can make a value take exponential time (JavaScript's RegExp needs seconds for
// `^(a+)+$` against 28 a's and a !). Linear is not free: the time is the value's length times the compiled
// program's size, and compiling costs about the program's size. Hence the bounds below, which together keep one
// value's check to milliseconds: the pattern's text (which bounds what compiling it costs, about 330 instructions
// per character at worst), its program, and the work one call may spend on patterns (the engine counts it,
// packages/engine/src/parameters/patterns.ts).

/** A pattern's text, at most (checked before it is compiled). */
export const MAX_PATTERN_LENGTH = 256;

/**
 * A pattern's compiled program, at most, in RE2 instructions: an e-mail-like pattern is 11, `[a-z]{2,10}` 20,
 * `\d{1,499}` 999 (counted repetitions are what grows it).
 */
export const MAX_PATTERN_PROGRAM_SIZE = 1_000;

/**
 * A string value's length when its definition sets no `max` (re-exported by parameters.ts): values are bound as
 * data, but a bound keeps what one call can make the server check, and match against a pattern, small.
 */
export const DEFAULT_STRING_MAX_LENGTH = 4_000;

/**
 * Pattern work one call may spend, in instructions × characters (each value checked costs its pattern's program
 * size times its length): one value of the default maximum length against the most complex pattern allowed.
 */
export const PATTERN_WORK_PER_CALL = DEFAULT_STRING_MAX_LENGTH * MAX_PATTERN_PROGRAM_SIZE;

export type CompiledPattern =
  | { ok: true; matcher: RE2JS; programSize: number }
  | { ok: false; /** Why it cannot run, a patternMessages reason phrase. */ reason: string };

/** The features RE2 leaves out on purpose (each needs backtracking), named from the parser's refusal. */
function unsupportedFeature(description: string, fragment: string): string | undefined {
  if (description === 'invalid or unsupported Perl syntax') {
    if (fragment.startsWith('(?=')) return 'lookahead';
    if (fragment.startsWith('(?!')) return 'negative lookahead';
    if (fragment.startsWith('(?>')) return 'atomic group';
    return undefined;
  }
  if (description === 'invalid named capture') {
    if (fragment.startsWith('(?<=')) return 'lookbehind';
    if (fragment.startsWith('(?<!')) return 'negative lookbehind';
    return undefined;
  }
  if (description === 'invalid escape sequence') {
    if (/^\\[1-9]/.test(fragment)) return `backreference \`${fragment}\``;
    if (fragment.startsWith('\\k')) return 'named backreference `\\k`';
    if (fragment === '\\u') return 'the escape `\\u`; write `\\x{…}` instead';
    return `the escape \`${fragment}\``;
  }
  return undefined;
}

function refusalReason(error: unknown): string {
  if (error instanceof RE2JSSyntaxException) {
    const description = error.getDescription();
    const fragment = error.getPattern() ?? '';
    const feature = unsupportedFeature(description, fragment);
    if (feature !== undefined) return patternMessages.unsupported(feature);
    // RE2 counts repetitions up to 1000 (`a{1001}`), nested ones included (`(a{100}){100}`).
    if (description === 'invalid repeat count') {
      return patternMessages.invalid(`invalid repeat count: \`${fragment}\`; counts go up to 1000`);
    }
    return patternMessages.invalid(fragment === '' ? description : `${description}: \`${fragment}\``);
  }
  if (error instanceof RE2JSException) return patternMessages.invalid(error.message);
  throw error;
}

/** Compiles a pattern for matching whole values (`testExact`, as `^(?:pattern)$`), or says why it cannot run. */
export function compilePattern(pattern: string): CompiledPattern {
  // A stored pattern is bounded too: compiling a long one could cost more than the check it serves.
  if (pattern.length > MAX_PATTERN_LENGTH) return { ok: false, reason: patternMessages.longerThan(MAX_PATTERN_LENGTH) };
  let matcher: RE2JS;
  try {
    matcher = RE2JS.compile(pattern);
  } catch (error) {
    return { ok: false, reason: refusalReason(error) };
  }
  const programSize = matcher.programSize();
  if (programSize > MAX_PATTERN_PROGRAM_SIZE) {
    return { ok: false, reason: patternMessages.tooComplex(programSize, MAX_PATTERN_PROGRAM_SIZE) };
  }
  return { ok: true, matcher, programSize };
}

/** Why a pattern cannot be saved (the message of the 400), or undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return patternMessages.tooLong(MAX_PATTERN_LENGTH);
  const compiled = compilePattern(pattern);
  return compiled.ok ? undefined : patternMessages.refused(compiled.reason);
}
