import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_SOURCES, generateClientTypes } from './client-types.js';

// Regenerates clients/typescript/src/{platform,rebalancer}.ts; test/client.test.ts fails until it is run after an API change.
const { platform, rebalancer } = await generateClientTypes();
writeFileSync(join(CLIENT_SOURCES, 'platform.ts'), platform);
writeFileSync(join(CLIENT_SOURCES, 'rebalancer.ts'), rebalancer);
console.log(`wrote ${join(CLIENT_SOURCES, 'platform.ts')} and rebalancer.ts`);
