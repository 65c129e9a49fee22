import { formatInteger, statusLabel } from '@/lib/format';

export { formatInteger, statusLabel };

/** The colour a module's status reads in on this page (card and Modules panel); anything else is grey. */
const MODULE_STATUS_COLORS: Readonly<Record<string, string>> = { WIP: 'blue', SUBMIT_IN_PROGRESS: 'orange', SUBMITTED: 'teal' };
export const moduleStatusColor = (status: string) => MODULE_STATUS_COLORS[status] ?? 'gray';
