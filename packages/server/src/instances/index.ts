// Public surface of instances: the `--instances` file, and opening its instances behind one request handler.
export { instanceNamed, readInstancesFile, type InstanceDefinition, type InstancesConfig } from './instances-file.js';
export { openInstances, openInstanceStores, type OpenedInstances, type StoreSetup } from './open-instances.js';
