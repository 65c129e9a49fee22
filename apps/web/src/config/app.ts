/** Product-wide constants of the web app. */
export const PRODUCT_NAME = 'Assortment Backoffice';

/** Router basename: every screen sits under the back-office base path (contract §2). */
export const BASE_PATH = '/backoffice';
