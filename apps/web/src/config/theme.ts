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
  components: {
    // Modals and drawers lock scrolling with react-remove-scroll, whose scroll-bar compensation
    // injects a <style> without the CSP nonce. Scrolling stays locked without it; the page's scroll
    // bar simply stays visible. (Plain objects: Modal.extend would pull Modal into the first bundle.)
    Modal: { defaultProps: { removeScrollProps: { removeScrollBar: false } } },
    Drawer: { defaultProps: { removeScrollProps: { removeScrollBar: false } } },
  },
});
