// One import point for every registry schema; the pieces live under ./schemas/ by area.
export * from './schemas/common';
export * from './schemas/auth-method';
export * from './schemas/namespace';
export * from './schemas/peering';
export * from './schemas/acl';
export * from './schemas/config-entry-common';
export * from './schemas/config-entry-defaults';
export * from './schemas/config-entry-resolver';
export * from './schemas/config-entry-splitter';
export * from './schemas/config-entry-router';
export * from './schemas/config-entries';
export * from './schemas/discovery-chain';
