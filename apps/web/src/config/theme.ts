import { createTheme } from '@mantine/core';

// System fonts only: the CSP allows no external hosts, and nothing is downloaded for text.
const systemSans =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
const systemMono = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: systemSans,
  fontFamilyMonospace: systemMono,
  headings: { fontFamily: systemSans },
  defaultRadius: 'md',
  cursorType: 'pointer',
});
