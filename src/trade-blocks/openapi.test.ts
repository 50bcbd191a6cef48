import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';

describeEachDatabase('trade block routes in the OpenAPI documents', (database) => {
  const t = useTestApp(database);
  it('documents every trade block route with its statuses', async () => {
    const platform = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const paths = Object.keys(platform.paths);
    for (const path of ['/api/v1/Trading/TradeBlocks', '/api/v1/Trading/TradeBlocks/{tradeBlockId}/History', '/api/v1/Trading/TradeBlockReasons/{tradeBlockReasonGlobalId}', '/api/v1/Portfolio/Accounts/action/updateDoNotTrade', '/api/v1/Trading/TradeBlocks/Import/Add']) {
      expect(paths, path).toContain(path);
    }
    expect(Object.keys(platform.paths['/api/v1/Trading/TradeBlocks'].post.responses).sort()).toEqual(['200', '207', '400', '401', '403', '500']);
    const rebalancer = (await t.app.inject({ url: '/rebalancer/openapi.json' })).json();
    expect(Object.keys(rebalancer.paths)).toEqual(expect.arrayContaining(['/rebalancer/api/v2/TradeBlockDetails', '/rebalancer/api/v2/TradeBlockDetails/AddList']));
  });
});
