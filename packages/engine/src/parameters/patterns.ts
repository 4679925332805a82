import { patternMessages } from '@datalab/contract/messages';
import { compilePattern, PATTERN_WORK_PER_CALL, type CompiledPattern } from '@datalab/contract/patterns';
import { parameterMessages } from './messages.ts';
import type { ParameterDefinition } from './schema.ts';

// Values against their definition's pattern, on RE2 (@datalab/contract/patterns): linear in the value, bounded per
// call. A pattern is compiled once per parsed definition and kept as long as that definition object lives (a
// WeakMap keyed by it, so nothing here outlives its owner): the calling layer keeps parsed definitions per asset
// version, bounded (apps/server/src/modules/calling/definitions.ts), so a pattern compiles once per version there.

const compiled = new WeakMap<ParameterDefinition, CompiledPattern>();

function patternOf(def: ParameterDefinition, pattern: string): CompiledPattern {
  let entry = compiled.get(def);
  if (entry === undefined) {
    entry = compilePattern(pattern);
    compiled.set(def, entry);
  }
  return entry;
}

/** What one validateParameters call may still spend on patterns, in instructions × characters. */
export interface PatternBudget {
  left: number;
}

export const newPatternBudget = (): PatternBudget => ({ left: PATTERN_WORK_PER_CALL });

/**
 * The message when `text` does not match `pattern`, the definition's own (or cannot be checked against it), else
 * undefined. The compiled pattern is kept under `def`, so pass the definition object itself, not a copy.
 */
export function patternMismatch(
  def: ParameterDefinition,
  pattern: string,
  field: string,
  text: string,
  budget: PatternBudget,
): string | undefined {
  const entry = patternOf(def, pattern);
  if (!entry.ok) return patternMessages.cannotCheck(field, entry.reason);
  // The automaton's work is at most its program's size per character read (and once more at the end).
  const cost = entry.programSize * (text.length + 1);
  if (cost > budget.left) return patternMessages.tooMuchText(field);
  budget.left -= cost;
  return entry.matcher.testExact(text) ? undefined : parameterMessages.pattern(field);
}
