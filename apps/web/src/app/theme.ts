import { createTheme, type MantineColorsTuple } from '@mantine/core';

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

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 7,
  colors: { brand },
  defaultRadius: 'md',
  fontFamily:
    'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
});
