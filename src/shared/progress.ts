/**
 * Progress of a long job (an import, a seed) for the person or the log watching it: counts and
 * rate. On a terminal, one line redrawn in place with a bar when the total is known; anywhere
 * else (a log file, CI, a pipe), a plain line every few seconds, so logs stay readable.
 */
export interface ProgressOptions {
  /** What is being done, e.g. "importing" or "seeding". */
  label: string;
  /** What is counted, e.g. "rows" or "households". */
  unit: string;
  /** The count expected at the end, when known: draws a bar and a percentage. */
  total?: number;
  /** Where progress goes; stderr by default so that stdout keeps the result. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Plain mode: least time between two lines. */
  intervalMs?: number;
  now?: () => number;
}

export interface Progress {
  /** The count so far; cheap to call for every row. `detail` is shown after the rate. */
  update(count: number, detail?: string): void;
  /** The final line: count, time and rate. Returns the seconds taken. */
  finish(detail?: string): number;
}

const BAR_WIDTH = 24;
const TTY_REDRAW_MS = 100;

const thousands = (n: number): string => Math.round(n).toLocaleString('en-US');

export function progress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const tty = stream.isTTY === true;
  const interval = tty ? TTY_REDRAW_MS : (options.intervalMs ?? 2_000);
  const started = now();
  let last = started;
  let count = 0;

  const line = (detail?: string): string => {
    const seconds = (now() - started) / 1000;
    const rate = seconds > 0 ? `${thousands(count / seconds)} ${options.unit}/s` : '';
    const total = options.total;
    const counted = total === undefined ? `${thousands(count)} ${options.unit}` : `${thousands(count)}/${thousands(total)} ${options.unit}`;
    const bar = tty && total !== undefined && total > 0 ? `${barOf(count / total)} ` : '';
    return `${options.label}: ${bar}${counted}, ${seconds.toFixed(1)} s, ${rate}${detail ? `, ${detail}` : ''}`;
  };

  const write = (text: string, final: boolean) => {
    if (tty) {
      // Clear to the end of the line: a shorter line must not leave the tail of a longer one.
      stream.write(`\r${text}\x1b[K${final ? '\n' : ''}`);
    } else stream.write(`${text}\n`);
  };

  return {
    update(next, detail) {
      count = next;
      const t = now();
      if (t - last < interval) return;
      last = t;
      write(line(detail), false);
    },
    finish(detail) {
      const seconds = (now() - started) / 1000;
      write(line(detail), true);
      return seconds;
    },
  };
}

function barOf(fraction: number): string {
  const filled = Math.max(0, Math.min(BAR_WIDTH, Math.round(fraction * BAR_WIDTH)));
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${Math.min(100, Math.floor(fraction * 100))
    .toString()
    .padStart(3)}%`;
}
