import { echoedId } from './redact.ts';

// The message templates of product §5. Every validation message in Data Lab is built here. An id a message repeats is
// redacted and capped (echoedId): a requested id is whatever the caller sent, a pasted secret included.

export const messages = {
  required: (field: string) => `${field} is required`,
  doesNotExist: (entity: string, id: string | number) => `${entity} with id ${echoedId(id)} does not exist`,
  alreadyExists: (entity: string, id: string | number) => `${entity} with id ${echoedId(id)} already exists`,
  /** The name-based equivalent of alreadyExists, for things people name. */
  alreadyExistsNamed: (entity: string, name: string) => `${entity} with name ${name} already exists`,
  noneFound: (what = 'Data') => `No ${what} found`,
  atLeastOne: (what: string) => `At least one ${what} is required`,
  unsupportedType: (type: string) => `Unsupported type ${type}`,
  allOrNone: (a: string, b: string) => `${a} and ${b} must be all present or all not present`,
  unsupportedDataAssetType: 'Unsupported Data Asset Type',
  invalidOption: 'Invalid option',
  noUidProvided: 'No UID provided',
  maxDepthReached: 'Max depth reached',
  noData: 'No data',
} as const;

/**
 * Parameter patterns (RE2 syntax, matched in linear time; patterns.ts), which product §5 has no template for: why a
 * pattern is refused when it is saved, and why a value cannot be checked against a stored one. A `reason` is one of
 * the phrases below ('uses a feature that is not supported (lookahead)').
 */
export const patternMessages = {
  refused: (reason: string) => `Pattern ${reason}; patterns are RE2 syntax, matched in linear time`,
  tooLong: (max: number) => `Pattern must be at most ${max} characters long`,
  cannotCheck: (field: string, reason: string) =>
    `${field} cannot be checked: its pattern ${reason}; an Editor must change the pattern (RE2 syntax)`,
  tooMuchText: (field: string) =>
    `${field} has too much text to check against its pattern in one call; send fewer or shorter values`,
  unsupported: (feature: string) => `uses a feature that is not supported (${feature})`,
  invalid: (problem: string) => `is not a valid regular expression (${problem})`,
  longerThan: (max: number) => `is longer than ${max} characters`,
  tooComplex: (size: number, max: number) => `is too complex (it compiles to ${size} instructions, at most ${max})`,
} as const;
