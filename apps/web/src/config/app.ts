/** Product-wide constants of the web app. */
export const PRODUCT_NAME = 'Assortment Backoffice';

/** The separate front office (contract §1): the server's FRONT_OFFICE_URL (GET /api/config), else this. */
export const DEFAULT_FRONT_OFFICE_URL = '/myStars';

/** Router basename: every screen sits under the back-office base path (contract §2). */
export const BASE_PATH = '/backoffice';
