/** A small line of values (sell-out per month), with the last point marked. */
export function Sparkline({ values, width = 90, height = 22, label }: { values: number[]; width?: number; height?: number; label?: string }) {
  if (values.length === 0) return null;
  const max = Math.max(...values, 1);
  const min = Math.min(...values, 0);
  const step = values.length > 1 ? (width - 4) / (values.length - 1) : 0;
  const y = (v: number) => height - 2 - ((v - min) / (max - min || 1)) * (height - 4);
  const points = values.map((v, i) => `${2 + i * step},${y(v)}`).join(' ');
  const last = values.length - 1;
  return (
    <svg width={width} height={height} role="img" aria-label={label ?? `Trend: ${values.join(', ')}`} style={{ display: 'block' }}>
      <polyline points={points} fill="none" stroke="var(--mantine-color-brand-6)" strokeWidth={1.5} strokeLinejoin="round" />
      <circle cx={2 + last * step} cy={y(values[last]!)} r={2.2} fill="var(--mantine-color-brand-7)" />
    </svg>
  );
}
