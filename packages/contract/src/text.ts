import { z } from 'zod';

// What text Data Lab accepts, in one place for the server and the portal's forms.
// - Any text: no NUL (PostgreSQL cannot store it) and no other control character except tab,
//   line feed and carriage return.
// - Names (shown in lists, pickers, audit lines): one line, and none of the invisible characters
//   that make two names look alike or reorder what is shown around them: bidirectional overrides
//   and isolates (U+202A–U+202E, U+2066–U+2069) and zero-width characters (U+200B–U+200D, U+FEFF).

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const TEXT_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NAME_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const INVISIBLE = /[\u200B-\u200D\u202A-\u202E\u2066-\u2069\uFEFF]/;

export const textMessages = {
  controlCharacter: 'Contains a control character that is not allowed',
  invisibleCharacter: 'Contains an invisible or direction-changing character that is not allowed',
} as const;

/** True when a string holds a NUL or another control character no text field accepts. */
export const hasForbiddenControl = (value: string) => TEXT_CONTROL.test(value);

/** Free text (descriptions, messages, searches), at most `max` characters after trimming. */
export const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => !hasForbiddenControl(value), textMessages.controlCharacter);

/** A required one-line name of at most `max` characters. */
export const nameText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !NAME_CONTROL.test(value), textMessages.controlCharacter)
    .refine((value) => !INVISIBLE.test(value), textMessages.invisibleCharacter);
