// Parameter-value messages that product §5 has no template for. The shared templates ('{X} is required',
// 'Invalid option', 'Unsupported type {X}') come from @datalab/contract/messages and are not repeated here.

const typeNames: Record<string, string> = {
  string: 'a text',
  integer: 'an integer',
  decimal: 'a decimal number',
  boolean: 'true or false',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time with an offset (ISO 8601)',
};

/** How many allowed values a refusal lists before it says where the rest are. */
export const SHOWN_ALLOWED_VALUES = 10;

export const parameterMessages = {
  wrongType: (field: string, type: string) => `${field} must be ${typeNames[type] ?? type}`,
  atLeast: (field: string, min: string) => `${field} must be at least ${min}`,
  atMost: (field: string, max: string) => `${field} must be at most ${max}`,
  lengthAtLeast: (field: string, min: string) => `${field} must be at least ${min} characters long`,
  lengthAtMost: (field: string, max: string) => `${field} must be at most ${max} characters long`,
  pattern: (field: string) => `${field} does not match the expected pattern`,
  /**
   * A value not among the allowed ones: the shared 'Invalid option', then the value and the allowed values — all of
   * them when few, else the first ones, how many there are and where the rest are (`moreAt`).
   */
  notAllowed: (field: string, value: string, allowed: readonly string[], moreAt?: string) => {
    const head = `Invalid option: ${value} is not one of the allowed values of ${field}`;
    if (allowed.length <= SHOWN_ALLOWED_VALUES) return `${head}: ${allowed.join(', ')}`;
    const first = allowed.slice(0, SHOWN_ALLOWED_VALUES).join(', ');
    const where = moreAt ?? 'the parameter data call of this parameter';
    return `${head} (${allowed.length}; the first ${SHOWN_ALLOWED_VALUES}: ${first}, …); ${where} lists them all`;
  },
};
