// Public API of performance measurement: plain histories in, returns out. No database, no HTTP.
export * from './days.js';
export * from './returns.js';
export { aggregateHistory, carriedValue } from './aggregate.js';
export { benchmarkSeries, benchmarkReturn, blendSeries, type BenchmarkLine } from './benchmark.js';
export { STANDARD_PERIODS, periodStart, standardPeriods, type StandardPeriod } from './periods.js';
