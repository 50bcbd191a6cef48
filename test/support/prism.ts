import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const PRISM = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'prism');

/** A port nobody listens on now (the kernel's pick), for a child process that needs to be told one. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ValidatingProxy {
  url: string;
  stop(): Promise<void>;
}

/**
 * Stoplight Prism as a validating proxy: requests to `url` go to `upstream`, and Prism checks
 * each request and answer against the OpenAPI document at `document`, listing what breaks it in
 * the `sl-violations` header of the answer (nothing is blocked: the test reads the header).
 */
export async function startValidatingProxy(document: string, upstream: string): Promise<ValidatingProxy> {
  const port = await freePort();
  const child: ChildProcess = spawn(PRISM, ['proxy', document, upstream, '-p', String(port), '-h', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start in 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited with ${code}:\n${output}`));
    });
  });
  // Prism logs every request; only the start-up line was needed.
  child.stdout?.removeAllListeners('data');
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
