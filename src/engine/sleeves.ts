// Sleeved registrations (level = Registration): when a sleeve's share of the
// registration leaves its band, cash moves from overweight sleeves to
// underweight ones, then every sleeve is rebalanced to its own model.

import { runAccount } from './account.js';
import { buildState, settingsOf } from './build.js';
import { formatBand, formatDollars, toCents } from './money.js';
import { errorResult, hasError } from './result.js';
import type { AccountResult, EngineMessage, RebalanceOptions, RegistrationResult, RegistrationSnapshot, SleeveSnapshot, SleeveTransfer } from './types.js';
import { activeTradeBlock } from './values.js';

interface SleeveInfo {
  readonly sleeve: SleeveSnapshot;
  readonly value: number;
  readonly ok: boolean;
  readonly blocked: boolean;
  delta: number;
  amount: number;
  result: AccountResult | null;
}

/**
 * Transfers are journals between sleeves, so what leaves the overweight sleeves must equal what
 * the underweight ones receive, to the cent. The receivers' amounts are cut down (scaled, floored),
 * so the senders give that total, shared in proportion to what each released; a sender keeps the
 * few cents it raised and did not send.
 */
function balanceTransfers(movers: SleeveInfo[]): void {
  const cents = (amount: number) => Math.round(Math.abs(amount) * 100);
  const inCents = movers.reduce((s, i) => s + (i.amount > 0 ? cents(i.amount) : 0), 0);
  const senders = movers.filter((i) => i.amount < 0);
  const outCents = senders.reduce((s, i) => s + cents(i.amount), 0);
  if (outCents === inCents || outCents === 0) return;
  let left = inCents;
  senders.forEach((i, k) => {
    const c = k === senders.length - 1 ? left : Math.floor((cents(i.amount) * inCents) / outCents);
    left -= c;
    i.amount = -c / 100;
  });
}

export function rebalanceRegistration(reg: RegistrationSnapshot, options: RebalanceOptions): RegistrationResult {
  const messages: EngineMessage[] = [];
  const sleeves = [...reg.sleeves].sort((a, b) => a.account.accountId - b.account.accountId);
  const regBlock = activeTradeBlock(reg.tradeBlocks, -1, reg.registrationId);
  const finish = (accounts: AccountResult[], transfers: SleeveTransfer[]): RegistrationResult => ({
    registrationId: reg.registrationId,
    accounts,
    transfers,
    messages,
    hasError: hasError(messages) || accounts.some((a) => a.hasError),
  });

  if (options.reason === 'Add' || options.reason === 'Withdraw') {
    const m: EngineMessage = { accountId: null, severity: 'Error', code: 'LEVEL_NOT_SUPPORTED', message: `${options.reason} is an account-level rebalance; it cannot run on registration ${reg.registrationId}` };
    messages.push(m);
    return finish(sleeves.map((s) => errorResult(s.account.accountId, options.reason, [])), []);
  }
  if (options.reason !== 'NeedReview' || regBlock) {
    return finish(sleeves.map((s) => runAccount(s.account, options, 0, regBlock)), []);
  }

  const infos: SleeveInfo[] = sleeves.map((sleeve) => {
    const snap = sleeve.account;
    const st = buildState(snap, settingsOf(options, snap), 0);
    const blocked = activeTradeBlock(snap.tradeBlocks, snap.accountId, snap.registrationId) !== null;
    return { sleeve, value: st.failed ? 0 : st.accountValue, ok: !st.failed, blocked, delta: 0, amount: 0, result: null };
  });
  const total = infos.reduce((s, i) => s + i.value, 0);
  const transfers: SleeveTransfer[] = [];
  const known = infos.every((i) => i.ok);
  if (!known) {
    messages.push({ accountId: null, severity: 'Error', code: 'SLEEVE_VALUE_UNKNOWN', message: `registration ${reg.registrationId}: a sleeve cannot be valued; no cash moves between sleeves` });
  }
  const out = infos.map((i) => {
    const cur = total > 0 ? (i.value / total) * 100 : 0;
    const t = i.sleeve.targetAllocation;
    return cur < t - i.sleeve.toleranceLower - 1e-9 || cur > t + i.sleeve.toleranceUpper + 1e-9;
  });
  const movers = infos.filter((i) => i.ok && !i.blocked);
  if (known && total > 0 && out.some(Boolean) && movers.length > 1) {
    // Blocked sleeves keep their value; the others share the rest by their targets.
    const poolValue = movers.reduce((s, i) => s + i.value, 0);
    const poolTarget = movers.reduce((s, i) => s + i.sleeve.targetAllocation, 0);
    for (const i of movers) i.delta = poolTarget > 0 ? toCents((poolValue * i.sleeve.targetAllocation) / poolTarget - i.value) / 100 : 0;
    let released = 0;
    for (const i of movers) {
      if (i.delta >= 0) continue;
      i.result = runAccount(i.sleeve.account, options, i.delta, null);
      const short = Math.max(0, i.result.cash.target - i.result.cash.after);
      const got = Math.max(0, -i.delta - short);
      i.amount = -toCents(got) / 100;
      released += got;
    }
    const wanted = movers.reduce((s, i) => s + (i.delta > 0 ? i.delta : 0), 0);
    const scale = wanted > 0 ? Math.min(1, released / wanted) : 0;
    if (scale < 1 && wanted > 0) {
      messages.push({ accountId: null, severity: 'Warning', code: 'SLEEVE_SHORT', message: `overweight sleeves released ${formatDollars(released)} of ${formatDollars(wanted)}; underweight sleeves receive a share of it` });
    }
    for (const i of movers) {
      if (i.delta <= 0) continue;
      i.amount = Math.floor(i.delta * scale * 100 + 1e-6) / 100;
      i.result = runAccount(i.sleeve.account, options, i.amount, null);
    }
    balanceTransfers(movers);
  }
  infos.forEach((i, k) => {
    const cur = total > 0 ? (i.value / total) * 100 : 0;
    const s = i.sleeve;
    transfers.push({ accountId: s.account.accountId, currentAllocation: cur, targetAllocation: s.targetAllocation, outOfBand: out[k] === true, amount: i.amount });
    if (i.amount !== 0) {
      messages.push({
        accountId: s.account.accountId,
        severity: 'Info',
        code: 'SLEEVE_TRANSFER',
        message: `sleeve ${s.account.accountId} at ${cur.toFixed(1)}% vs ${s.targetAllocation.toFixed(1)}% ${formatBand(s.toleranceLower, s.toleranceUpper)}: ${i.amount > 0 ? 'receives' : 'releases'} ${formatDollars(Math.abs(i.amount))}`,
      });
    }
  });
  const accounts = infos.map((i) => i.result ?? runAccount(i.sleeve.account, options, 0, null));
  return finish(accounts, transfers);
}
