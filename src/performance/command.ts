import { DomainError } from '../shared/errors.js';
import { systemClock, today } from '../shared/clock.js';
import type { ValuationService } from './valuation.js';

/**
 * `wealth value`: stores every account's value for the date (default today, UTC) and the day's
 * flows, fees and income from its transactions; a second run for the date replaces its rows.
 * Exit 0 with a summary line, or 1 naming the bad option.
 */
export async function runValueCommand(valuation: ValuationService, options: { date?: string; firm?: string }, out: (line: string) => void = (line) => void process.stdout.write(`${line}\n`)): Promise<number> {
  const date = options.date ?? today(systemClock);
  try {
    const summary = await valuation.valueDay(date, { firmCode: options.firm });
    out(`valued ${summary.accounts} accounts of ${summary.firms} firm(s) at the close of ${summary.date}`);
    return 0;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    out(`--${error.problems[0]?.field ?? 'date'}: ${error.problems[0]?.message ?? error.message}`);
    return 1;
  }
}
