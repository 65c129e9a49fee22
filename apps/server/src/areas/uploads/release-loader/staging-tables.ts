/**
 * The names of a release load's staging tables and of the item fields its head tables keep: plain data, shared by
 * the loader's statements (release-loader.repository.ts) and the stage worker's typing (stage-typer.ts), which
 * imports nothing that talks to a database.
 */
import type { LoaderFileKind } from './formats.js';

export const STAGE: Record<LoaderFileKind, string> = { reference: 'rl_reference', registry: 'rl_registry', segment: 'rl_segment', module: 'rl_module', cluster: 'rl_cluster' };
/** One row per module-month / cluster-month: the header fields of its first row. */
export const HEAD_TABLES = { module: 'rl_module_head', cluster: 'rl_cluster_head' } as const;
export type HeadKind = keyof typeof HEAD_TABLES;

/** The item columns of a head table: the key and the header fields (a subset of the file's columns). */
export const HEAD_COLUMNS: Record<HeadKind, readonly string[]> = {
  module: ['module_name', 'month_id', 'module_label', 'module_description', 'macro_family', 'brand_code', 'collection', 'planning_channel_id', 'new_module', 'initial_size', 'stars_zones'],
  cluster: ['cluster_id', 'month_id', 'cluster_label', 'cluster_description', 'brand_code', 'collection', 'planning_channel_id', 'range_facing'],
};
