import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A port free now, for a test that listens for real: the app is told its PUBLIC_URL (which every
 * absolute URL it writes starts with) before it listens.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** One free port per database suite of a file. */
export async function portsPerDatabase() {
  return { sqlite: await freePort(), postgres: await freePort() };
}
