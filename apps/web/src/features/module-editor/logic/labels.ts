import { formatMonthId } from '@bo/shared/months';
import { formatInteger, statusLabel } from '@/lib/format';

export { formatInteger, statusLabel };

/** 'M03_2027' → '03/2027' */
export const formatMonthLabel = (monthId: string) => formatMonthId(monthId);

/** The colour a module's status reads in on this page (card and Modules panel); anything else is grey. */
const MODULE_STATUS_COLORS: Readonly<Record<string, string>> = { WIP: 'blue', SUBMIT_IN_PROGRESS: 'orange', SUBMITTED: 'teal' };
export const moduleStatusColor = (status: string) => MODULE_STATUS_COLORS[status] ?? 'gray';
