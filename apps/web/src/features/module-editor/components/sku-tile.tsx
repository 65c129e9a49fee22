import { memo, useState } from 'react';
import { Menu } from '@mantine/core';
import type { ProductDto } from '@bo/shared/modules';
import { formatInteger, formatPrice } from '@/lib/format';
import { doorIndexBand } from '../logic/door-index';
import type { Area } from '../logic/drop-rules';
import classes from './sku-tile.module.css';

const isDisabledSku = (p: ProductDto) => p.sapStatus === 'Z' || p.sapStatus === 'I';

/** Keeps only what a number may look like while typing ('1', '1.', '1.5', '1,5'): other input is ignored. */
const NUMERIC_TYPING = /^\d{0,7}([.,]\d?)?$/;

export interface SkuMenuAction {
  label: string;
  onSelect: () => void;
  disabled?: boolean;
  color?: string;
}

export interface SkuTileProps {
  product: ProductDto;
  area: Area;
  readOnly: boolean;
  compact?: boolean;
  dimmed?: boolean;
  onMinValue?: (upc: string, value: number) => void;
  menu?: (product: ProductDto, area: Area) => SkuMenuAction[];
  onInfo?: (product: ProductDto) => void;
}

/** One SKU: picture, model/colour/size, UPC, price, sell-in/out, door index band, flags, min value. */
export const SkuTile = memo(function SkuTile({ product: p, area, readOnly, compact, dimmed, onMinValue, menu, onInfo }: SkuTileProps) {
  const band = doorIndexBand(p.doorIndex);
  const disabled = isDisabledSku(p);
  // Plain elements with CSS classes and no inline styles (colours come from data attributes): a page
  // shows hundreds of tiles, and each Mantine component (Text, Group, TextInput …), SVG icon or style
  // attribute costs props resolution, attributes and style work on every tile.
  return (
    <div className={classes.tile} data-area={area} data-band={band ?? undefined} data-disabled={disabled || undefined} data-dimmed={dimmed || undefined} data-upc={p.upc} data-testid="sku-tile">
      <div className={classes.top}>
        <button type="button" className={classes.picture} onClick={() => onInfo?.(p)} aria-label={`Information on ${p.model} ${p.color}`} tabIndex={-1}>
          <img src={`/data/images/${p.upc}/1.png?width=${compact ? 96 : 120}`} alt="" loading="lazy" decoding="async" width={compact ? 64 : 84} height={compact ? 42 : 56} draggable={false} />
        </button>
        {menu && <TileMenu product={p} area={area} menu={menu} />}
      </div>
      <div className={classes.model} title={`${p.model} ${p.color} ${p.size}`}>
        {p.model} <span className={classes.dim}>{p.color}</span> <span className={classes.dim}>{p.size}</span>
      </div>
      <div className={classes.upc}>{p.upc}</div>
      {!compact && (
        <div className={classes.row}>
          <span className={classes.price}>{formatPrice(p.srp)}</span>
          {p.doorIndex !== null && (
            <span className={classes.door} data-band={band ?? undefined} title="Door index">
              DI {formatInteger(p.doorIndex)}
            </span>
          )}
        </div>
      )}
      <div className={classes.figures}>
        SI {p.sellIn === null ? '–' : formatInteger(p.sellIn)} · SO {p.sellOut === null ? '–' : formatInteger(p.sellOut)}
      </div>
      <div className={classes.bottom}>
        <span className={classes.flags}>
          {p.flagDisco && <Flag kind="disco" label="Discontinued" text="DISCO" />}
          {(p.flagN || p.newIn) && <Flag kind="new" label="Newness" text="NEW" />}
          {p.polar && <Flag kind="polar" label="Polarised" text="POL" />}
          {disabled && <Flag kind="off" label={`Disabled in SAP (status ${p.sapStatus})`} text="OFF" />}
        </span>
        {!compact && area !== 'BIN' && (
          <input
            type="text"
            inputMode="decimal"
            aria-label={`Min value of ${p.upc}`}
            className={classes.min}
            value={String(p.minValue).replace('.', ',')}
            readOnly={readOnly || !onMinValue}
            onPointerDown={(e) => e.stopPropagation()}
            onKeyDown={(e) => e.stopPropagation()}
            onChange={(e) => {
              const text = e.currentTarget.value;
              if (!NUMERIC_TYPING.test(text)) return;
              const value = Number(text.replace(',', '.'));
              if (text !== '' && Number.isFinite(value)) onMinValue?.(p.upc, value);
            }}
          />
        )}
      </div>
    </div>
  );
});

/** A flag badge; its meaning is the native title (a page holds thousands of tiles: no tooltip machinery per flag). */
function Flag({ kind, label, text }: { kind: 'disco' | 'new' | 'polar' | 'off'; label: string; text: string }) {
  return (
    <span className={classes.flag} data-kind={kind} title={label} aria-label={label}>
      {text}
    </span>
  );
}

/**
 * The tile's ⋮ menu: a plain button (no Mantine component per tile) that mounts a Mantine Menu
 * (popover, floating position, focus handling) when first opened.
 */
function TileMenu({ product: p, area, menu }: { product: ProductDto; area: Area; menu: (product: ProductDto, area: Area) => SkuMenuAction[] }) {
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  const trigger = (
    <button
      type="button"
      className={classes.menuButton}
      aria-label={`Actions for ${p.upc}`}
      aria-haspopup="menu"
      onPointerDown={(e) => e.stopPropagation()}
      onClick={mounted ? undefined : () => (setMounted(true), setOpened(true))}
    >
      ⋮
    </button>
  );
  if (!mounted) return trigger;
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={220} opened={opened} onChange={setOpened}>
      <Menu.Target>{trigger}</Menu.Target>
      <Menu.Dropdown onPointerDown={(e) => e.stopPropagation()}>
        {menu(p, area).map((a) => (
          <Menu.Item key={a.label} disabled={a.disabled} color={a.color && !a.color.includes('.') ? `${a.color}.9` : a.color} onClick={a.onSelect}>
            {a.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
