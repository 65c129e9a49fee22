import type { MassiveEditType } from '@bo/shared/massive-edit';

/**
 * The cells of a massive edit row, in the order a spreadsheet pastes them (docs/web-app.md "Massive
 * Edit"). Module: MODULE, DESCRIPTION, ADD, REMOVE, STATUS, MONTH, MIN VALUE SKUs, MIN VALUE.
 */
type FieldKind = 'list' | 'text' | 'status' | 'months' | 'number';

export interface FieldDef {
  /** The request's property (part 2 §3). */
  key: string;
  /** The column header (the paste header a copied table may start with). */
  label: string;
  kind: FieldKind;
}

/** A column on screen: the MIN VALUE column holds two fields (its SKU list and the number). */
interface ColumnDef {
  header: string;
  fields: readonly string[];
  /** Share of the table's width (px at the table's minimum width). */
  width: number;
}

export const FIELDS: Record<MassiveEditType, readonly FieldDef[]> = {
  module: [
    { key: 'moduleLabels', label: 'MODULE', kind: 'list' },
    { key: 'moduleDescription', label: 'DESCRIPTION', kind: 'text' },
    { key: 'upcToAddList', label: 'ADD', kind: 'list' },
    { key: 'upcToRemoveList', label: 'REMOVE', kind: 'list' },
    { key: 'upcStatus', label: 'STATUS', kind: 'status' },
    { key: 'monthIdList', label: 'MONTH', kind: 'months' },
    { key: 'upcMinValueSkuList', label: 'MIN VALUE SKUs', kind: 'list' },
    { key: 'upcMinValueSkuValue', label: 'MIN VALUE', kind: 'number' },
  ],
  cluster: [
    { key: 'clusterLabels', label: 'CLUSTER', kind: 'list' },
    { key: 'clusterDescription', label: 'DESCRIPTION', kind: 'text' },
    { key: 'moduleLabelsToAdd', label: 'ADD MODULE', kind: 'list' },
    { key: 'moduleLabelsToRemove', label: 'REMOVE MODULE', kind: 'list' },
    { key: 'liasToAdd', label: 'ADD LIA', kind: 'list' },
    { key: 'liasToRemove', label: 'REMOVE LIA', kind: 'list' },
    { key: 'months', label: 'MONTH', kind: 'months' },
  ],
  classification: [
    { key: 'clusterLabels', label: 'CLUSTER', kind: 'list' },
    { key: 'classificationsToAdd', label: 'ADD CLIENT CLASS.', kind: 'list' },
    { key: 'classificationsToRemove', label: 'REMOVE CLIENT CLASS.', kind: 'list' },
  ],
};

export const COLUMNS: Record<MassiveEditType, readonly ColumnDef[]> = {
  module: [
    { header: 'MODULE', fields: ['moduleLabels'], width: 160 },
    { header: 'DESCRIPTION', fields: ['moduleDescription'], width: 140 },
    { header: 'ADD', fields: ['upcToAddList'], width: 135 },
    { header: 'REMOVE', fields: ['upcToRemoveList'], width: 135 },
    { header: 'STATUS', fields: ['upcStatus'], width: 70 },
    { header: 'MONTH', fields: ['monthIdList'], width: 190 },
    { header: 'MIN VALUE', fields: ['upcMinValueSkuList', 'upcMinValueSkuValue'], width: 190 },
  ],
  cluster: [
    { header: 'CLUSTER', fields: ['clusterLabels'], width: 160 },
    { header: 'DESCRIPTION', fields: ['clusterDescription'], width: 160 },
    { header: 'ADD MODULE', fields: ['moduleLabelsToAdd'], width: 160 },
    { header: 'REMOVE MODULE', fields: ['moduleLabelsToRemove'], width: 160 },
    { header: 'ADD LIA', fields: ['liasToAdd'], width: 120 },
    { header: 'REMOVE LIA', fields: ['liasToRemove'], width: 120 },
    { header: 'MONTH', fields: ['months'], width: 180 },
  ],
  classification: [
    { header: 'CLUSTER', fields: ['clusterLabels'], width: 260 },
    { header: 'ADD CLIENT CLASS.', fields: ['classificationsToAdd'], width: 260 },
    { header: 'REMOVE CLIENT CLASS.', fields: ['classificationsToRemove'], width: 260 },
  ],
};

/** The value an untouched cell holds. */
export function defaultValue(kind: FieldKind): string {
  if (kind === 'status') return 'MH';
  if (kind === 'number') return '1';
  return '';
}

export const TYPE_LABELS: Record<MassiveEditType, string> = { module: 'Module', cluster: 'Cluster', classification: 'Classification' };
export const MASSIVE_EDIT_TYPES: readonly MassiveEditType[] = ['module', 'cluster', 'classification'];
