import { MultiSelect, Select, TagsInput } from '@mantine/core';
import { DEFAULT_MONTHS_ROLLING, type PerformanceFilters } from '@bo/shared/working-area';
import { useCountries, useStarsZones } from '@/lib/reference-lists';

/** How many performance filters narrow the figures (the months rolling only when not the default). */
export function activePerformanceFilters(f: PerformanceFilters): number {
  const lists = [f.zonaPerMysa, f.starsCustomer, f.customerCode, f.distrChannelActual, f.legoClassDes, f.countryName];
  return lists.filter((l) => (l?.length ?? 0) > 0).length + ((f.monthsRolling?.[0] ?? DEFAULT_MONTHS_ROLLING) !== DEFAULT_MONTHS_ROLLING ? 1 : 0);
}

export const DEFAULT_PERFORMANCE_FILTERS: PerformanceFilters = { monthsRolling: [DEFAULT_MONTHS_ROLLING] };

/**
 * The performance filters of part 2 §2 (zonaPerMysa, monthsRolling, starsCustomer, customerCode,
 * distrChannelActual, legoClassDes, countryName): one set per page, edited from the header or the
 * performance popup, used by the popup and the Active SKUs search.
 */
export function PerformanceFilterFields({
  value,
  onChange,
  withinPortal = true,
}: {
  value: PerformanceFilters;
  onChange: (next: PerformanceFilters) => void;
  /** false inside a popover: a dropdown in a portal would count as a click outside and close it. */
  withinPortal?: boolean;
}) {
  const zones = useStarsZones();
  const countries = useCountries();
  const set = (patch: Partial<PerformanceFilters>) => onChange({ ...value, ...patch });
  return (
    <>
      <Select
        size="xs"
        w={120}
        label="Months rolling"
        data={['1', '3', '6', '9', '12']}
        value={String(value.monthsRolling?.[0] ?? DEFAULT_MONTHS_ROLLING)}
        onChange={(v) => set({ monthsRolling: [Number(v ?? DEFAULT_MONTHS_ROLLING)] })}
        allowDeselect={false}
        comboboxProps={{ withinPortal }}
      />
      <MultiSelect size="xs" w={190} label="Stars zone" data={(zones.data ?? []).map((z) => z.starsZone)} value={value.zonaPerMysa ?? []} onChange={(v) => set({ zonaPerMysa: v })} clearable comboboxProps={{ withinPortal }} />
      <MultiSelect size="xs" w={190} label="Country" data={(countries.data ?? []).map((c) => c.name)} value={value.countryName ?? []} onChange={(v) => set({ countryName: v })} searchable clearable comboboxProps={{ withinPortal }} />
      <TagsInput size="xs" w={170} label="Stars customer" value={value.starsCustomer ?? []} onChange={(v) => set({ starsCustomer: v })} clearable />
      <TagsInput size="xs" w={150} label="Customer code" value={value.customerCode ?? []} onChange={(v) => set({ customerCode: v })} clearable />
      <TagsInput size="xs" w={170} label="Distribution channel" value={value.distrChannelActual ?? []} onChange={(v) => set({ distrChannelActual: v })} clearable />
      <TagsInput size="xs" w={150} label="Lego class" value={value.legoClassDes ?? []} onChange={(v) => set({ legoClassDes: v })} clearable />
    </>
  );
}
