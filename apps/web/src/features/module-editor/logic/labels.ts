import { formatMonthId } from '@bo/shared/months';
import { formatInteger, statusLabel } from '@/lib/format';

export { formatInteger, statusLabel };

/** 'M03_2027' → '03/2027' */
export const formatMonthLabel = (monthId: string) => formatMonthId(monthId);
