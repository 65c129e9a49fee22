// The home feature's public surface for other features: the Create Module form (the module page opens
// it too) and the editors' URLs (the keys home passes, also used by the module page's cluster links).
export { CreateModuleModal, type ModuleDefaults } from './components/create-module-modal';
export { absolute, clusterUrl, clustersUrl } from './logic/open-items';
