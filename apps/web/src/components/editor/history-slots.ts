import type { ClusterVersionContent } from '@bo/shared/item-versions';
import type { ProductDto } from '@bo/shared/modules';

/**
 * What an editor page hands the History panel of one of its items. The panels are the item-versions feature's
 * and the pages the editors'; features do not import each other, so the app route composes them in and the
 * props they agree on are written here once.
 */
export interface ModuleHistorySlotProps {
  opened: boolean;
  onClose: () => void;
  item: { moduleName: string; monthId: string; moduleLabel: string; brand: string; collection: string };
  /** The card's composition on screen (maybe unsaved) and description. */
  products: ProductDto[];
  description: string;
  canRestore: boolean;
  /** Loads the restored composition into the card as unsaved changes (the editor's own undo step). */
  onRestore: (restored: { products: ProductDto[]; description: string; revertOf: number }) => void;
}

export interface ClusterHistorySlotProps {
  opened: boolean;
  onClose: () => void;
  item: { clusterId: string; monthId: string; clusterLabel: string };
  /** The block's content on screen (maybe unsaved). */
  current: ClusterVersionContent;
  classificationLabels: Record<number, string>;
  canRestore: boolean;
  /**
   * Loads the version into the block as unsaved changes: its modules (those that still exist), LIAs, classifications and
   * description. Stores are not the editor's to change (the release files own them): they are compared, not restored.
   */
  onRestore: (restored: { content: ClusterVersionContent; revertOf: number; skippedModules: string[] }) => Promise<void> | void;
}
