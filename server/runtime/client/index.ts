// The client package's front door: config loading, the HTTP transport, list/watch, REST client, REST mapper.
export * from './lister-watcher';
export * from './config';
export * from './http';
export * from './flowcontrol';
export * from './gvk';
export * from './list-watch';
export * from './pager';
export * from './patch';
export * from './interfaces';
export * from './resource-client';
export * from './rest-client';
export * from './discovery';
export * from './rest-mapper';
