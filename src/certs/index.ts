// Public face of src/certs: certificate generation for the webhook and the hot-reloading of its serving pair.
// Depends on node:crypto, node:tls, node:fs and `selfsigned` only; nothing of the webhook or the schema.
export * from './files.js';
export * from './generate.js';
export * from './keypair.js';
export * from './reloader.js';
