export * from './errors';
export * from './duration';
export * from './env';
export * from './transport';
export * from './watch';
