import { createTheme, darken, type CSSVariablesResolver } from '@mantine/core';

// System fonts only: the CSP allows no external hosts, and nothing is downloaded for text.
const systemSans = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
const systemMono = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

// WCAG 2.2 AA (4.5:1 for text) on every screen, checked by axe in e2e/accessibility.spec.ts. Mantine's
// defaults fall short: dimmed text (gray 6) is 3.32:1 on white, primary buttons and links (blue 6) 3.55:1,
// error text (red 6) 3.28:1, light badges (colour 9 on colour 1) 4.33:1 for teal.
/** Dimmed text: 6.1:1 on white, 5.5:1 on the palest tinted panels (blue 0, gray 1). */
const DIMMED = '#5c636a';
/** Shade 8 as the filled colour: white on blue 8 is 5.0:1, on red 8 4.5:1; hover darkens to shade 9. */
const PRIMARY_SHADE = 8;

// Mantine's close buttons are an icon alone: give them a name (axe: button-name).
const closeButton = { 'aria-label': 'Close' };

export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: PRIMARY_SHADE, dark: PRIMARY_SHADE },
  fontFamily: systemSans,
  fontFamilyMonospace: systemMono,
  headings: { fontFamily: systemSans },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    // Links are told apart from the text around them by more than colour (WCAG 1.4.1).
    Anchor: { defaultProps: { underline: 'always' } },
    // Modals and drawers lock scrolling with react-remove-scroll, whose scroll-bar compensation
    // injects a <style> without the CSP nonce. Scrolling stays locked without it; the page's scroll
    // bar simply stays visible. (Plain objects: Modal.extend would pull Modal into the first bundle.)
    Modal: { defaultProps: { removeScrollProps: { removeScrollBar: false }, closeButtonProps: closeButton } },
    Drawer: { defaultProps: { removeScrollProps: { removeScrollBar: false }, closeButtonProps: closeButton } },
    // Their headers are a <header> by default, which inside a dialog counts as a second page banner: the dialog
    // is named by its title, and its header is a plain box.
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
  },
});

/** Light-variant text (badges, light buttons, alerts' titles) a quarter darker than shade 9: >= 5.5:1 on shade 2. */
function lightVariantColours(colours: typeof theme.colors): Record<string, string> {
  const entries = Object.entries(colours ?? {}).flatMap(([name, shades]) =>
    shades?.[9] ? [[`--mantine-color-${name}-light-color`, darken(shades[9], 0.25)]] : [],
  );
  return Object.fromEntries(entries);
}

/** Pass to every MantineProvider beside `theme`. */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': DIMMED,
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...lightVariantColours(resolved.colors),
  },
  dark: {},
});
