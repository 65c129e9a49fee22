/**
 * Every route of the spec's route table (part 1 §2), plus /approve-cluster (part 2 §2), with the
 * title its screen shows. Paths are relative to the router basename (`/backoffice`).
 */
export const paths = {
  home: { path: '/', title: 'Home' },
  login: { path: '/login', title: 'Login' },
  history: { path: '/history', title: 'Upload and Export History' },
  module: { path: '/module', title: 'Module Editor' },
  cluster: { path: '/cluster', title: 'Cluster Editor' },
  statistics: { path: '/statistics', title: 'Statistics' },
  manageUser: { path: '/manageUser', title: 'Manage Users' },
  manageBrand: { path: '/manageBrand', title: 'Manage Brands' },
  manageRelease: { path: '/manageRelease', title: 'Manage Releases' },
  uploadTwo: { path: '/uploadTwo', title: 'Upload Files' },
  upload: { path: '/upload', title: 'Import Data' },
  pdfArea: { path: '/pdf-area', title: 'PDF Files Area' },
  massiveEdit: { path: '/massive-edit-wi', title: 'Massive Edit' },
  discoRemoveArea: { path: '/disco-remove-area', title: 'Discontinuation / Removed Area' },
  pendingArea: { path: '/pending-area', title: 'Pending Area' },
  massiveEditSelected: { path: '/massive-edit-selected-wi', title: 'Massive Edit Selected' },
  export: { path: '/export', title: 'Export Data' },
  deletionArea: { path: '/deletion-area', title: 'Deletion Area' },
  approveCluster: { path: '/approve-cluster', title: 'Approve Cluster' },
} as const;

export type PathKey = keyof typeof paths;
