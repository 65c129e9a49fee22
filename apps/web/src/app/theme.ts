import {
  createTheme,
  type CSSVariablesResolver,
  defaultVariantColorsResolver,
  type MantineColorsTuple,
  type VariantColorsResolver,
} from '@mantine/core';

// A deep indigo: calm and business-like, distinct from the status colours (red, orange, teal).
const brand: MantineColorsTuple = [
  '#eef1fb',
  '#dce2f5',
  '#b5c2ea',
  '#8ba0df',
  '#6883d5',
  '#5170cf',
  '#4466cd',
  '#3556b5',
  '#2c4ca2',
  '#1f3f8f',
];

/**
 * WCAG 2.1 AA contrast for everything drawn in a palette hue (badges, buttons, alerts, the tiles' flags),
 * whose texts are small and bold (4.5:1): Mantine writes light variants in shade 6 on a 10% tint (teal
 * 2.6:1, yellow 1.9:1) and fills in the primary shade behind white text (red 3.9:1, teal 3.0:1). Its CSS
 * variables are set once here: each hue's light-variant text is one dark enough on its tint (shade 9, or
 * a darker tone where shade 9 fails on the tint: teal, green, lime, yellow, orange), and fills take the same
 * tones (white text 5.0:1 or more). Yellow, orange and lime stay bright when filled and get dark text instead
 * (variantColorResolver). Brand, gray and dark keep Mantine's colours (they pass).
 */
const LIGHT_TEXT: Record<string, string> = {
  red: 'var(--mantine-color-red-9)',
  pink: 'var(--mantine-color-pink-9)',
  grape: 'var(--mantine-color-grape-9)',
  violet: 'var(--mantine-color-violet-9)',
  indigo: 'var(--mantine-color-indigo-9)',
  blue: 'var(--mantine-color-blue-9)',
  cyan: 'var(--mantine-color-cyan-9)',
  teal: '#06634a',
  green: '#1f6f30',
  lime: '#4a6b00',
  yellow: '#7a5200',
  orange: '#a63c00',
};
const BRIGHT_FILLS = new Set(['yellow', 'orange', 'lime']);
/** Fills behind white text: the same dark tones (white on them 5.0:1 or more); the bright hues keep theirs. */
const FILL = Object.fromEntries(Object.entries(LIGHT_TEXT).filter(([hue]) => !BRIGHT_FILLS.has(hue)));

const paletteVariables = Object.fromEntries([
  ...Object.entries(LIGHT_TEXT).flatMap(([hue, color]) => [
    [`--mantine-color-${hue}-light-color`, color],
    // The hue as a text colour (Text c="red", a red menu item such as Logout), and outline variants.
    [`--mantine-color-${hue}-text`, color],
    [`--mantine-color-${hue}-outline`, color],
  ]),
  ...Object.entries(FILL).flatMap(([hue, color]) => [
    [`--mantine-color-${hue}-filled`, color],
    [`--mantine-color-${hue}-filled-hover`, `color-mix(in srgb, ${color}, black 15%)`],
  ]),
]);

const variantColorResolver: VariantColorsResolver = (input) => {
  const base = defaultVariantColorsResolver(input);
  if (input.variant === 'filled' && typeof input.color === 'string' && BRIGHT_FILLS.has(input.color)) return { ...base, color: 'var(--mantine-color-black)' };
  return base;
};

export const theme = createTheme({
  variantColorResolver,
  components: {
    // Every modal's and drawer's close button is named (axe button-name): Mantine draws an icon only.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close the dialog' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close the panel' } } },
  },
  primaryColor: 'brand',
  primaryShade: 7,
  colors: { brand },
  defaultRadius: 'md',
  fontFamily:
    'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
});

/**
 * WCAG 2.1 AA contrast (4.5:1 for text): Mantine's dimmed text (gray 6, 3.3:1 on white) and placeholder
 * (gray 5, 2:1) are too light for the small grey texts this product uses everywhere. Both are darkened
 * once here, for every screen: dimmed 5.8:1 on white (5.5:1 on gray 0), placeholder 4.8:1. Screens write
 * warnings in `var(--bo-warning-text)`, reds in red.9 and greens in teal.9 (4.5:1 or more on white).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  // --bo-warning-text: the orange of a warning written as text (Mantine's darkest orange is 4.0:1): 6.4:1
  // on white, 5.5:1 on orange 1.
  light: { ...paletteVariables, '--mantine-color-dimmed': '#5f6670', '--mantine-color-placeholder': '#6c737b', '--bo-warning-text': '#a63c00' },
  dark: {},
});
