// Rebalancing engine throughput: generates N accounts of 20-30 positions from a
// seeded PRNG (same portfolios on every run), rebalances them one after the
// other on a single thread and prints accounts/s, positions/s and peak RSS.
//
//   npx tsx bench/engine.ts [--accounts 100000] [--seed 42] [--reason NeedReview] [--drifted 1]
//
// --drifted is the share of accounts whose holdings drift ±15 % from target
// (about 20 trades each); the others drift ±1 % and mostly need nothing.

import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { rebalanceAccount, type AccountSnapshot, type Model, type Product, type ProductType, type RebalanceType } from '../src/engine/index.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? (process.argv[i + 1] as string) : fallback;
}

const ACCOUNTS = Number(arg('accounts', '100000'));
const SEED = Number(arg('seed', '42'));
const REASON = arg('reason', 'NeedReview') as RebalanceType;
const DRIFTED = Number(arg('drifted', '1'));
const rng = xoroshiro128plus(SEED);
const int = (lo: number, hi: number): number => uniformInt(rng, lo, hi);
const frac = (): number => int(0, 1_000_000) / 1_000_000;

// A firm-sized universe: 3,000 products and 60 models of 20-28 targets.
const TYPES: ProductType[] = ['Equity', 'Equity', 'ETF', 'ETF', 'MutualFund', 'FixedIncome'];
const products = new Map<number, Product>();
for (let id = 1; id <= 3000; id++) {
  products.set(id, { id, ticker: `T${id}`, type: TYPES[int(0, TYPES.length - 1)] as ProductType, price: int(100, 50000) / 100, fractionalShares: int(0, 9) === 0 });
}
const models: Model[] = [];
for (let k = 0; k < 60; k++) {
  const n = int(20, 28);
  const ids = new Set<number>();
  while (ids.size < n) ids.add(int(1, 3000));
  const cash = int(1, 5);
  const each = Math.floor(((100 - cash) / n) * 100) / 100;
  const list = [...ids];
  models.push({
    id: k + 1,
    name: `Model ${k + 1}`,
    cashTargetPercent: cash,
    cashUpperTolerance: 1,
    targets: list.map((productId, i) => ({
      productId,
      targetPercent: i === list.length - 1 ? Math.round((100 - cash - each * (n - 1)) * 100) / 100 : each,
      lowerTolerance: 1,
      upperTolerance: 1,
      equivalents: i % 7 === 0 ? [int(1, 3000)] : undefined,
    })),
  });
}

function generate(accountId: number): AccountSnapshot {
  const model = models[int(0, models.length - 1)] as Model;
  const value = int(10_000, 2_000_000);
  const drifted = frac() < DRIFTED;
  const spread = drifted ? 0.15 : 0.01;
  // A drifted account also holds products outside its model and misses some model products.
  const nPositions = drifted ? int(20, 30) : model.targets.length;
  const positions: { productId: number; shares: number; costBasis: number }[] = [];
  const seen = new Set<number>();
  for (const t of model.targets) {
    if (positions.length >= nPositions) break;
    if (drifted && int(0, 9) === 0) continue; // some model products are not held
    const p = products.get(t.productId) as Product;
    const drift = 1 - spread + frac() * 2 * spread;
    const shares = Math.max(1, Math.floor(((value * t.targetPercent) / 100 / (p.price as number)) * drift));
    positions.push({ productId: p.id, shares, costBasis: shares * (p.price as number) * (0.7 + frac() * 0.6) });
    seen.add(p.id);
  }
  while (positions.length < nPositions) {
    const id = int(1, 3000);
    if (seen.has(id)) continue;
    seen.add(id);
    const p = products.get(id) as Product;
    positions.push({ productId: id, shares: Math.max(1, Math.floor((value * 0.002) / (p.price as number))), costBasis: 1000 });
  }
  return {
    accountId,
    registrationId: accountId,
    asOfDate: '2024-06-28',
    products,
    positions,
    custodialCash: Math.round((drifted ? value * frac() * 0.06 : (value * model.cashTargetPercent * (1 + frac() * 0.02)) / 100) * 100) / 100,
    model,
    setAsideCash: int(0, 19) === 0 ? [{ id: accountId, cashAmountTypeId: 1, cashAmount: 1000, expirationTypeId: 3 }] : undefined,
    tradeBlocks: int(0, 99) === 0 ? [{ id: accountId, entityEnum: 7, entityId: accountId, reason: 'Manual', startDate: '2024-01-01' }] : undefined,
  };
}

let peakRss = process.memoryUsage().rss;
const sample = (): void => {
  const rss = process.memoryUsage().rss;
  if (rss > peakRss) peakRss = rss;
};

const g0 = performance.now();
const accounts: AccountSnapshot[] = new Array(ACCOUNTS);
let positions = 0;
for (let i = 0; i < ACCOUNTS; i++) {
  const a = generate(i + 1);
  accounts[i] = a;
  positions += a.positions.length;
}
const g1 = performance.now();
sample();

// Warm up the JIT on a slice so the timed loop measures steady state.
for (let i = 0; i < Math.min(2000, ACCOUNTS); i++) rebalanceAccount(accounts[i] as AccountSnapshot, { reason: REASON, amount: 5000 });

let trades = 0;
let errors = 0;
let warnings = 0;
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < ACCOUNTS; i++) {
  const r = rebalanceAccount(accounts[i] as AccountSnapshot, { reason: REASON, amount: 5000 });
  trades += r.trades.length;
  if (r.hasError) errors++;
  for (const m of r.messages) if (m.severity === 'Warning') warnings++;
  if ((i & 8191) === 0) sample();
}
const t1 = performance.now();
const cpu = process.cpuUsage(c0);
sample();

const seconds = (t1 - t0) / 1000;
const maxRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
console.log(`engine bench: ${ACCOUNTS} accounts, ${positions} positions, reason ${REASON}, seed ${SEED}, drifted ${DRIFTED}`);
console.log(`generate: ${((g1 - g0) / 1000).toFixed(2)} s`);
console.log(`rebalance: ${seconds.toFixed(2)} s, ${trades} trades, ${errors} accounts with errors, ${warnings} warnings`);
// CPU time as well as wall time: on a shared machine the wall clock also counts other processes.
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.log(`accounts/s: ${Math.round(ACCOUNTS / seconds)} wall, ${Math.round(ACCOUNTS / cpuSeconds)} per CPU second`);
console.log(`positions/s: ${Math.round(positions / seconds)} wall, ${Math.round(positions / cpuSeconds)} per CPU second`);
console.log(`peak RSS: ${(maxRss / 1024 / 1024).toFixed(0)} MiB`);
