export { recordBatchEnded, recordSetAsidesExpired } from './platform-events-repository.js';
export { verifySignature } from './signature.js';
export { PUSH_DEFAULTS } from './push.js';
