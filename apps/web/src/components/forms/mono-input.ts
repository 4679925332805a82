/** Styles for an input whose value is code (a URL, a path, a header name): the value in monospace, not its label. */
export const monoInput = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } as const;
