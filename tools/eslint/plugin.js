// The repo's own ESLint rules, registered as the `local` plugin in eslint.config.js.
import disableNeedsReason from './disable-needs-reason.js';
import floors from './floors.js';
import noImportCycle from './no-import-cycle.js';
import sqlInRepositories from './sql-in-repositories.js';

export default {
  meta: { name: 'local' },
  rules: {
    'disable-needs-reason': disableNeedsReason,
    floors,
    'no-import-cycle': noImportCycle,
    'sql-in-repositories': sqlInRepositories,
  },
};
