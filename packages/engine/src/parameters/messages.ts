// Parameter-value messages that SPEC §5 has no template for. The shared templates ('{X} is required',
// 'Invalid option', 'Unsupported type {X}') come from @datalab/contract/messages and are not repeated here.

const typeNames: Record<string, string> = {
  string: 'a text',
  integer: 'an integer',
  decimal: 'a decimal number',
  boolean: 'true or false',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time with an offset (ISO 8601)',
};

export const parameterMessages = {
  wrongType: (field: string, type: string) => `${field} must be ${typeNames[type] ?? type}`,
  atLeast: (field: string, min: string) => `${field} must be at least ${min}`,
  atMost: (field: string, max: string) => `${field} must be at most ${max}`,
  lengthAtLeast: (field: string, min: string) => `${field} must be at least ${min} characters long`,
  lengthAtMost: (field: string, max: string) => `${field} must be at most ${max} characters long`,
  pattern: (field: string) => `${field} does not match the expected pattern`,
};
