import { clusterKeyString, moduleKeyString } from '@bo/shared/item-keys';
import { BASE_PATH } from '../config/app';

/**
 * The editors' URLs (docs/web-app.md "Home → editors"), in lib/ because home and both editors build
 * them and features do not import each other:
 * - one module: `/module?moduleName=…&monthId=…`; several: `/module?modules=NAME|MONTH,…`;
 * - one cluster: `/cluster?clusterId=…&monthId=…`; several: `/cluster?clusters=ID|MONTH,…`.
 */
const q = encodeURIComponent;

export const moduleUrl = (m: { moduleName: string; monthId: string }) => `/module?moduleName=${q(m.moduleName)}&monthId=${q(m.monthId)}`;
export const modulesUrl = (list: readonly { moduleName: string; monthId: string }[]) =>
  list.length === 1 ? moduleUrl(list[0]!) : `/module?modules=${list.map((m) => moduleKeyString({ moduleName: q(m.moduleName), monthId: q(m.monthId) })).join(',')}`;

export const clusterUrl = (c: { clusterId: string; monthId: string }) => `/cluster?clusterId=${q(c.clusterId)}&monthId=${q(c.monthId)}`;
export const clustersUrl = (list: readonly { clusterId: string; monthId: string }[]) =>
  `/cluster?clusters=${list.map((c) => clusterKeyString({ clusterId: q(c.clusterId), monthId: q(c.monthId) })).join(',')}`;

/** A route of the app as a browser URL (for new tabs). */
export const absolute = (path: string) => `${BASE_PATH}${path}`;

export function openInNewTab(path: string): void {
  window.open(absolute(path), '_blank', 'noopener');
}
