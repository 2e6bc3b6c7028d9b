export * from './types';
export { localStateFile, readLocalOutputs } from './local-backend';
export { PendingOutputs, readRemoteState, stateLocation } from './reader';
export { RemoteStateDataSource, remoteStateRecord, remoteStateShape } from './data-source';
export { BUILTIN_PROVIDER, terraformBuiltinProvider, type BuiltinProvider } from './builtin-provider';
export { ownStateLocation } from './own-location';
