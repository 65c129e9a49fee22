// The exports feature's public surface: the export popup, used by the module page (and the Export Data page).
export { ExportModal, type ExportModalProps } from './components/export-modal';
export type { ModuleExportItem } from './api/export-items';
