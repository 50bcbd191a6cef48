// The printable client report: no script, every value escaped, readable from a 390 px phone to
// paper. The growth chart is inline SVG drawn from the daily series.
import { escape, layout } from '../http/html.js';
import type { ReportView } from './service.js';

const pct = (r: number | null | undefined): string => (r === null || r === undefined ? '—' : `${(r * 100).toFixed(2)} %`);
const usd = (v: number | null): string => (v === null ? '—' : v.toLocaleString('en-US', { style: 'currency', currency: 'USD' }));
const KIND: Record<string, string> = { Accounts: 'Account', Registrations: 'Registration', Clients: 'Household' };

const WIDTH = 640;
const HEIGHT = 240;
const PAD = { left: 64, right: 12, top: 12, bottom: 28 };

/** Growth of 10,000 over the period: the entity's net TWR and, when there is one, the benchmark's. */
export function growthChart(view: ReportView): string {
  const own = view.daily.map((d) => ({ date: d.date, value: 10_000 * (1 + d.twrNetCumulative) }));
  if (own.length < 2) return '<p class="note">Not enough valuations in the period for a chart.</p>';
  const bench = (view.benchmarkSeries ?? []).map((b) => ({ date: b.date, value: 10_000 * (1 + b.cumulative) }));
  const all = [...own, ...bench];
  const t0 = Date.parse(own[0]!.date);
  const t1 = Math.max(Date.parse(own[own.length - 1]!.date), t0 + 1);
  let lo = Math.min(...all.map((p) => p.value));
  let hi = Math.max(...all.map((p) => p.value));
  if (hi - lo < 1) [lo, hi] = [lo - 1, hi + 1];
  const x = (date: string) => PAD.left + ((Date.parse(date) - t0) / (t1 - t0)) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - lo) / (hi - lo)) * (HEIGHT - PAD.top - PAD.bottom);
  const path = (points: { date: string; value: number }[]) => points.map((p, i) => `${i ? 'L' : 'M'}${x(p.date).toFixed(1)},${y(p.value).toFixed(1)}`).join('');
  const ticks = [lo, (lo + hi) / 2, hi]
    .map((v) => `<text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${Math.round(v).toLocaleString('en-US')}</text><line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" class="grid"/>`)
    .join('');
  const benchPath = bench.length > 1 ? `<path d="${path(bench)}" class="bench"/>` : '';
  return `<figure>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Growth of 10,000 over the period${bench.length > 1 ? ' against the benchmark' : ''}">
${ticks}
<text x="${PAD.left}" y="${HEIGHT - 8}">${escape(own[0]!.date)}</text>
<text x="${WIDTH - PAD.right}" y="${HEIGHT - 8}" text-anchor="end">${escape(own[own.length - 1]!.date)}</text>
${benchPath}<path d="${path(own)}" class="own"/>
</svg>
<figcaption><span class="key own"></span> ${escape(view.record.name)} (net of fees)${bench.length > 1 ? ` <span class="key bench"></span> Benchmark: ${escape(view.record.benchmark?.name ?? '')}` : ''}</figcaption>
</figure>`;
}

export function reportPage(view: ReportView, firmName: string): string {
  const r = view.record;
  const title = `${KIND[r.entity]} performance: ${r.name}`;
  const summary = r.startDate === null
    ? '<p class="note">No valuations are stored for this period.</p>'
    : `<table class="summary"><tbody>
<tr><th>Beginning value</th><td>${usd(r.beginningValue)}</td></tr>
<tr><th>Net contributions</th><td>${usd(r.netFlows)}</td></tr>
<tr><th>Fees</th><td>${usd(r.fees)}</td></tr>
<tr><th>Income</th><td>${usd(r.income)}</td></tr>
<tr><th>Gain / loss</th><td>${usd(r.gainLoss)}</td></tr>
<tr><th>Ending value</th><td>${usd(r.endingValue)}</td></tr>
<tr><th>Time-weighted, net / gross</th><td>${pct(r.twrNet)} / ${pct(r.twrGross)}</td></tr>
<tr><th>Money-weighted</th><td>${pct(r.mwr)}</td></tr>
${r.benchmark ? `<tr><th>Benchmark (${escape(r.benchmark.name)})</th><td>${pct(r.benchmark.twr)}</td></tr>` : ''}
</tbody></table>`;
  const periods = r.periods.length === 0 ? '' : `<h2>Returns by period</h2>
<div class="scroll"><table class="periods"><thead><tr><th>Period</th><th>From</th><th>To</th><th>TWR net</th><th>TWR gross</th><th>Annualised</th><th>MWR</th></tr></thead><tbody>
${r.periods.map((p) => `<tr><th>${p.period}</th><td>${p.startDate}</td><td>${p.endDate}</td><td>${pct(p.twrNet)}</td><td>${pct(p.twrGross)}</td><td>${pct(p.twrNetAnnualized)}</td><td>${pct(p.mwr)}</td></tr>`).join('\n')}
</tbody></table></div>`;
  const accounts = view.accounts.length === 0 ? '' : `<h2>Accounts</h2>
<div class="scroll"><table><thead><tr><th>Account</th><th>Beginning</th><th>Ending</th><th>TWR net</th><th>MWR</th></tr></thead><tbody>
${view.accounts.map((a) => `<tr><th>${escape(a.name)}<br><small>${escape(a.number)}</small></th><td>${usd(a.beginningValue)}</td><td>${usd(a.endingValue)}</td><td>${pct(a.twrNet)}</td><td>${pct(a.mwr)}</td></tr>`).join('\n')}
</tbody></table></div>`;
  const body = `<h1>${escape(title)}</h1>
<p class="lead">${escape(firmName)} · ${r.startDate ? `${r.startDate} to ${r.endDate}${r.inception ? ' (since inception)' : ''}` : 'no period'}</p>
${summary}
${view.daily.length > 1 ? `<h2>Growth of 10,000</h2>${growthChart(view)}` : ''}
${periods}
${accounts}
<p class="note">Time-weighted returns link daily (or Modified Dietz) sub-period returns; flows count at the start of their day. Money-weighted is the internal rate of the period's flows. Periods under a year are not annualised.</p>`;
  return layout(title, body, STYLE);
}

const STYLE = `
  body { display: block; }
  main { max-width: 60rem; margin: 0 auto; }
  h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
  table { border-collapse: collapse; width: 100%; font-size: .9rem; }
  th, td { padding: .3rem .4rem; border-bottom: 1px solid #e4e8ee; text-align: right; white-space: nowrap; }
  th:first-child { text-align: left; }
  table.summary th { text-align: left; font-weight: 500; white-space: normal; }
  .scroll { overflow-x: auto; }
  figure { margin: 0; }
  svg { width: 100%; height: auto; display: block; font-size: 11px; fill: #52606d; }
  svg .grid { stroke: #e4e8ee; }
  svg path { fill: none; stroke-width: 2; }
  svg path.own, .key.own { stroke: #1f5fae; background: #1f5fae; }
  svg path.bench, .key.bench { stroke: #c77c02; background: #c77c02; stroke-dasharray: 5 3; }
  .key { display: inline-block; width: 1rem; height: .25rem; vertical-align: middle; }
  figcaption { font-size: .85rem; color: #52606d; margin-top: .25rem; }
  .note { color: #52606d; font-size: .8rem; }
  @media (max-width: 30rem) {
    table { font-size: .8rem; }
    th, td { padding: .25rem .25rem; }
    /* On a phone the period's name says its dates; the columns of returns keep the width. */
    table.periods tr > :nth-child(2), table.periods tr > :nth-child(3) { display: none; }
  }
  @media print {
    body { background: #fff; padding: 0; }
    main { box-shadow: none; max-width: none; padding: 0; }
    .scroll { overflow: visible; }
    h2 { break-after: avoid; }
    tr, figure { break-inside: avoid; }
  }
`;
