import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { addPosition, createAccount, createProduct, rebalancerSession } from '../../../test/support/rebalancer.js';
import { tradingCalls } from '../../../test/support/trading.js';

interface Record {
  id: number;
  scope: 'Firm' | 'Account';
  productId: number;
  substituteProductId: number;
  accountId: number | null;
}

describeEachDatabase('product substitutions (/v1/modeling/substitutions)', (database) => {
  const t = useTestApp(database);
  const tokens: { [user: string]: string } = {};
  const path = '/rebalancer/v1/modeling/substitutions';
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, who = 'admin') =>
    t.app.inject({ method, url: `${path}${url}`, payload, headers: { authorization: tokens[who]! } });
  const add = async (productId: number, substituteProductId: number, accountId: number | null = null) => {
    const response = await call('POST', '', { productId, substituteProductId, accountId });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Record>();
  };
  const stored = async () => (await t.db.kysely.selectFrom('product_substitutions').select('id').where('firm_id', '=', t.firm.firmId).execute()).length;
  /** Products by letter, so a test reads as the rule it shows. */
  const p: { [name: string]: { id: number; ticker: string } } = {};
  let accountA: number;
  let accountB: number;
  let foreignProduct: number;
  let foreignAccount: number;

  beforeAll(async () => {
    for (const user of ['admin', 'advisor', 'reader'] as const) tokens[user] = await rebalancerSession(t, user);
    tokens.stranger = await rebalancerSession(t, 'admin', 'otherFirm');
    const k = t.db.kysely;
    for (const name of ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']) p[name] = await createProduct(k, t.firm.firmId);
    accountA = await createAccount(k, t.firm.firmId);
    accountB = await createAccount(k, t.firm.firmId);
    foreignProduct = (await createProduct(k, t.otherFirm.firmId)).id;
    foreignAccount = await createAccount(k, t.otherFirm.firmId);
  });

  it('adds a firm-wide and an account substitution, lists them paged and filtered, reads and removes one', async () => {
    const firmWide = await add(p.A!.id, p.B!.id);
    expect(firmWide).toEqual({ id: expect.any(Number), scope: 'Firm', productId: p.A!.id, productTicker: p.A!.ticker, substituteProductId: p.B!.id, substituteTicker: p.B!.ticker, accountId: null, accountNumber: null });
    // The account's own substitution of A overrides the firm's for that account.
    const override = await add(p.A!.id, p.C!.id, accountA);
    expect(override).toMatchObject({ scope: 'Account', accountId: accountA, accountNumber: expect.any(String), substituteProductId: p.C!.id });

    const all = await call('GET', '');
    expect(all.statusCode).toBe(200);
    expect(all.json().map((s: Record) => s.id)).toEqual([firmWide.id, override.id]);
    expect(all.headers['x-total-count']).toBe('2');
    const page = await call('GET', '?$top=1&$skip=1');
    expect(page.json()).toEqual([override]);
    expect(page.headers['x-total-count']).toBe('2');
    expect((await call('GET', `?accountId=${accountA}`)).json()).toEqual([override]);
    expect((await call('GET', `?accountId=${accountB}`)).json()).toEqual([]);
    expect((await call('GET', `?productId=${p.A!.id}&scope=Firm`)).json()).toEqual([firmWide]);
    expect((await call('GET', `?substituteProductId=${p.C!.id}`)).json()).toEqual([override]);
    expect((await call('GET', `/${override.id}`)).json()).toEqual(override);

    const removed = await call('DELETE', `/${override.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual(override);
    expect((await call('DELETE', `/${override.id}`)).statusCode).toBe(404);
    expect((await call('GET', `/${override.id}`)).statusCode).toBe(404);
    await call('DELETE', `/${firmWide.id}`);
    expect(await stored()).toBe(0);
  });

  it('refuses a product substituting itself, and a product or account of another firm, with a 400 naming the field; writes nothing', async () => {
    const cases: [object, string, RegExp][] = [
      [{ productId: p.D!.id, substituteProductId: p.D!.id, accountId: null }, 'substituteProductId', /cannot substitute itself/],
      [{ productId: p.D!.id, substituteProductId: p.D!.id, accountId: accountA }, 'substituteProductId', /cannot substitute itself/],
      [{ productId: p.D!.id, substituteProductId: foreignProduct, accountId: null }, 'substituteProductId', new RegExp(`product ${foreignProduct} does not exist`)],
      [{ productId: foreignProduct, substituteProductId: p.D!.id, accountId: null }, 'productId', /does not exist/],
      [{ productId: p.D!.id, substituteProductId: p.E!.id, accountId: foreignAccount }, 'accountId', new RegExp(`account ${foreignAccount} does not exist`)],
      [{ productId: p.D!.id, substituteProductId: p.E!.id }, 'accountId', /required/],
      [{ productId: 0, substituteProductId: p.E!.id, accountId: null }, 'productId', />= 1/],
      [{ productId: p.D!.id, substituteProductId: p.E!.id, accountId: null, acountId: accountA }, 'acountId', /is not a known field/],
    ];
    for (const [payload, field, message] of cases) {
      const response = await call('POST', '', payload);
      expect(response.statusCode, response.body).toBe(400);
      const problem = response.json().errors.find((e: { field: string }) => e.field === field);
      expect(problem, `${field} in ${response.body}`).toBeDefined();
      expect(problem.message).toMatch(message);
    }
    expect(await stored()).toBe(0);
  });

  it('one substitute per product and scope: a second is a 409 naming the first', async () => {
    const first = await add(p.D!.id, p.E!.id);
    const second = await call('POST', '', { productId: p.D!.id, substituteProductId: p.F!.id, accountId: null });
    expect(second.statusCode).toBe(409);
    expect(second.json().errors).toEqual([{ field: 'productId', message: `${p.D!.ticker} already has a substitute in this scope: ${p.D!.ticker} → ${p.E!.ticker} (substitution ${first.id}, firm-wide); remove it first` }]);
    const mine = await add(p.D!.id, p.F!.id, accountB);
    expect((await call('POST', '', { productId: p.D!.id, substituteProductId: p.G!.id, accountId: accountB })).statusCode).toBe(409);
    expect(await stored()).toBe(2);
    await call('DELETE', `/${mine.id}`);
    await call('DELETE', `/${first.id}`);
  });

  it('refuses a chain in either order, also between the firm\'s and an account\'s, with a 409 naming the other substitution', async () => {
    const bc = await add(p.B!.id, p.C!.id);
    const forward = await call('POST', '', { productId: p.A!.id, substituteProductId: p.B!.id, accountId: null });
    expect(forward.statusCode).toBe(409);
    expect(forward.json().errors).toEqual([{ field: 'substituteProductId', message: `${p.B!.ticker} has a substitute of its own in ${p.B!.ticker} → ${p.C!.ticker} (substitution ${bc.id}, firm-wide); substitutions are not chained` }]);
    const backward = await call('POST', '', { productId: p.C!.id, substituteProductId: p.D!.id, accountId: null });
    expect(backward.statusCode).toBe(409);
    expect(backward.json().errors[0]).toMatchObject({ field: 'productId', message: expect.stringContaining('is itself a substitute') });
    // An account sees the firm's B → C: its own A → B would chain.
    expect((await call('POST', '', { productId: p.A!.id, substituteProductId: p.B!.id, accountId: accountA })).statusCode).toBe(409);
    // And a firm-wide row may not chain with an account's: the account would see both.
    const own = await add(p.H!.id, p.I!.id, accountA);
    const reaching = await call('POST', '', { productId: p.I!.id, substituteProductId: p.J!.id, accountId: null });
    expect(reaching.statusCode).toBe(409);
    expect(reaching.json().errors[0].message).toContain(`account ${(await call('GET', `/${own.id}`)).json().accountNumber}`);
    expect(await stored()).toBe(2);
    await call('DELETE', `/${own.id}`);
    await call('DELETE', `/${bc.id}`);
  });

  it('two simultaneous writes that would chain or repeat a scope: one succeeds', async () => {
    for (let round = 0; round < 3; round++) {
      const duplicate = await Promise.all([p.B!.id, p.C!.id].map((substitute) => call('POST', '', { productId: p.A!.id, substituteProductId: substitute, accountId: accountB })));
      expect(duplicate.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const chain = await Promise.all([
        call('POST', '', { productId: p.E!.id, substituteProductId: p.F!.id, accountId: null }),
        call('POST', '', { productId: p.F!.id, substituteProductId: p.G!.id, accountId: null }),
      ]);
      expect(chain.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await stored()).toBe(2);
      for (const s of (await call('GET', '')).json()) await call('DELETE', `/${s.id}`);
    }
  });

  it('the firm\'s substitutions are its own; writes take the model edit privilege', async () => {
    const mine = await add(p.A!.id, p.B!.id);
    expect((await call('GET', '', undefined, 'stranger')).json()).toEqual([]);
    expect((await call('GET', `/${mine.id}`, undefined, 'stranger')).statusCode).toBe(404);
    expect((await call('DELETE', `/${mine.id}`, undefined, 'stranger')).statusCode).toBe(404);
    // The other firm may substitute the same way without colliding.
    const theirs = await call('POST', '', { productId: foreignProduct, substituteProductId: (await createProduct(t.db.kysely, t.otherFirm.firmId)).id, accountId: foreignAccount }, 'stranger');
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect((await call('GET', '', undefined, 'reader')).statusCode).toBe(200);
    expect((await call('POST', '', { productId: p.C!.id, substituteProductId: p.D!.id, accountId: null }, 'reader')).statusCode).toBe(403);
    expect((await call('DELETE', `/${mine.id}`, undefined, 'reader')).statusCode).toBe(403);
    expect((await t.app.inject({ url: path })).statusCode).toBe(401);
    await call('DELETE', `/${mine.id}`);
  });

  it('rebalances apply them: the account\'s over the firm\'s, named in the batch messages; a removed one is gone at the next rebalance', async () => {
    const platform = await t.session('admin');
    const k = t.db.kysely;
    const [vti, schb, itot, bnd] = [await createProduct(k, t.firm.firmId, 200, 'VTI'), await createProduct(k, t.firm.firmId, 50, 'SCHB'), await createProduct(k, t.firm.firmId, 100, 'ITOT'), await createProduct(k, t.firm.firmId, 80, 'BND')];
    const model = await t.app.inject({
      method: 'POST',
      url: '/rebalancer/v1/modeling/models',
      headers: { authorization: tokens.admin! },
      payload: { name: 'Sixty forty', cashTargetPercent: 5, targets: [{ productId: vti.id, targetPercent: 60, lowerTolerance: 5, upperTolerance: 5 }, { productId: bnd.id, targetPercent: 35, lowerTolerance: 5, upperTolerance: 5 }] },
    });
    expect(model.statusCode, model.body).toBe(200);
    const withOwn = await createAccount(k, t.firm.firmId, { cash: 80_000, modelId: model.json().id });
    const withFirm = await createAccount(k, t.firm.firmId, { cash: 80_000, modelId: model.json().id });
    for (const account of [withOwn, withFirm]) await addPosition(k, t.firm.firmId, account, vti.id, 100);
    const firmWide = await add(vti.id, schb.id);
    const own = await add(vti.id, itot.id, withOwn);

    const trading = tradingCalls(t, () => platform);
    const rebalance = async (account: number) => {
      const batch = await trading.generate({ reason: 'NeedReview', keys: [account] });
      return {
        rows: (await trading.tradesOf(batch)).map((x) => `${x.action} ${x.ticker} ${x.shares} @${x.price} = ${x.amount}`).sort(),
        messages: (await trading.messageOf(batch)).details.map((d) => `${d.severity}: ${d.message}`),
      };
    };
    const own1 = await rebalance(withOwn);
    expect(own1.rows).toEqual(['BUY BND 437 @80 = 34960', 'BUY ITOT 600 @100 = 60000', 'SELL VTI 100 @200 = 20000']);
    expect(own1.messages).toEqual([`Info: VTI replaced by ITOT (account substitution ${own.id})`]);
    const firm1 = await rebalance(withFirm);
    expect(firm1.rows).toEqual(['BUY BND 437 @80 = 34960', 'BUY SCHB 1200 @50 = 60000', 'SELL VTI 100 @200 = 20000']);
    expect(firm1.messages).toEqual([`Info: VTI replaced by SCHB (firm substitution ${firmWide.id})`]);

    // Removed: the next rebalance of the account falls back to the firm's, then to the model. The
    // first batch's trades are still open orders, so each run trades from where they leave it.
    await call('DELETE', `/${own.id}`);
    const own2 = await rebalance(withOwn);
    expect(own2.rows).toEqual(['BUY SCHB 1200 @50 = 60000', 'SELL ITOT 600 @100 = 60000']);
    expect(own2.messages).toEqual([
      `Info: VTI replaced by SCHB (firm substitution ${firmWide.id})`,
      'Info: 3 open orders of trade instance 1 counted as executed: buys $94,960.00, sells $20,000.00',
    ]);
    await call('DELETE', `/${firmWide.id}`);
    const own3 = await rebalance(withOwn);
    expect(own3.rows).toEqual(['BUY VTI 300 @200 = 60000', 'SELL SCHB 1200 @50 = 60000']);
    // No substitution is named any more; the earlier orders that shaped the run still are.
    expect(own3.messages).toEqual([
      'Info: 3 open orders of trade instance 1 counted as executed: buys $94,960.00, sells $20,000.00',
      'Info: 2 open orders of trade instance 3 counted as executed: buys $60,000.00, sells $60,000.00',
    ]);
  });
});
