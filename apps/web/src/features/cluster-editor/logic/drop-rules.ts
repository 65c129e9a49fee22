import type { EditorModule } from './composition';

/** Where a dragged module comes from. */
export type DragSource = 'search' | 'cluster' | 'bin' | 'all' | 'allBin';
export interface DragData {
  source: DragSource;
  key?: string;
  module: EditorModule;
}
/** Where it may land: a cluster's modules, its bin, the 'all clusters' area or its bin. */
export type DropZone = 'cluster' | 'bin' | 'all' | 'allBin';
export interface DropData {
  zone: DropZone;
  key?: string;
}

type DropIntent =
  | { kind: 'add'; key: string }
  | { kind: 'remove'; key: string }
  | { kind: 'addToAll' }
  | { kind: 'removeFromAll' };

/**
 * What a drop means (part 2 §4 "Drag and drop"): onto a cluster adds the module (or restores it from
 * that cluster's bin); onto a cluster's bin removes it, from that cluster or from the 'all clusters'
 * area; onto the 'all clusters' area adds it to all; onto its bin removes it from all. Anything else,
 * and a drop back where the module came from, does nothing (null).
 */
export function dropIntent(from: DragData, to: DropData): DropIntent | null {
  if (to.zone === 'cluster' && to.key) return from.source === 'cluster' && from.key === to.key ? null : { kind: 'add', key: to.key };
  if (to.zone === 'bin' && to.key) return (from.source === 'cluster' && from.key === to.key) || from.source === 'all' ? { kind: 'remove', key: to.key } : null;
  if (to.zone === 'all') return from.source !== 'all' ? { kind: 'addToAll' } : null;
  if (to.zone === 'allBin') return from.source === 'all' ? { kind: 'removeFromAll' } : null;
  return null;
}
