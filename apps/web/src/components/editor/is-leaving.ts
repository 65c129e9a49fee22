interface Place {
  pathname: string;
  search: string;
}

/**
 * Does this navigation leave what the editor shows? A change of path always does; a change of the
 * query string only when `guardSearch` (the cluster editor opens other clusters on the same path).
 */
export function isLeaving(current: Place, next: Place, guardSearch = false): boolean {
  return current.pathname !== next.pathname || (guardSearch && current.search !== next.search);
}
