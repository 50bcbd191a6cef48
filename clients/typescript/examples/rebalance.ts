import { readFileSync } from 'node:fs';
import { createPlatformClient, createRebalancerClient } from '@wealth/client';

// Where the service runs, and the credentials its first start wrote (DATA_DIR/demo-credentials.json).
const baseUrl = process.env.BASE_URL ?? 'http://localhost:8080';
const credentials = JSON.parse(readFileSync(process.env.CREDENTIALS ?? 'data/demo-credentials.json', 'utf8')) as {
  users: { userName: string; password: string }[];
  partner: { clientId: number; clientSecret: string };
};
// The demo advisor: a portfolio manager whose team owns models.
const advisor = credentials.users.find((user) => user.userName.endsWith('.advisor'))!;

// Log in: the user's Basic credentials and the partner application's id and secret.
const anonymous = createPlatformClient({ baseUrl });
const login = await anonymous.GET('/api/v1/Security/Token', {
  params: {
    header: {
      authorization: `Basic ${btoa(`${advisor.userName}:${advisor.password}`)}`,
      client_id: String(credentials.partner.clientId),
      client_secret: credentials.partner.clientSecret,
    },
  },
});
if (!login.data) throw new Error(`login refused: ${JSON.stringify(login.error)}`);
const token = login.data.access_token;

// A page of accounts ($top and $skip are optional: 100 from the first by default).
const platform = createPlatformClient({ baseUrl, token });
const { data: accounts } = await platform.GET('/api/v1/Portfolio/Accounts', { params: { query: { $top: 20 } } });
console.log(`${accounts!.length} accounts`);

// Rebalance them back to their models and follow the batch until it is done.
const { data: batchId, error } = await platform.POST('/api/v1/Trading/GenerateTrades', {
  body: { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: accounts!.map((account) => account.id) },
});
if (batchId === undefined) throw new Error(`rebalance refused: ${JSON.stringify(error)}`);
for (;;) {
  const { data: status } = await platform.GET('/api/v1/Trading/TradeGenerationStatus/{batchProcessingId}', { params: { path: { batchProcessingId: batchId } } });
  console.log(`batch ${batchId} ${status!.status}: ${status!.itemsCompleted} of ${status!.totalItems} accounts`);
  if (status!.isDone) {
    // The trades, a page at a time; X-Total-Count says how many there are in all.
    const trades = await platform.GET('/api/v1/Trading/TradeInstances/{tradeInstanceId}/Trades', { params: { path: { tradeInstanceId: status!.tradeInstanceId }, query: { $top: 5 } } });
    for (const trade of trades.data ?? []) console.log(`  ${trade.action} ${trade.shares} ${trade.ticker} in ${trade.accountNumber}: ${trade.explanation}`);
    console.log(`  ${trades.response.headers.get('X-Total-Count')} trades in all`);
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}

// The rebalancing application takes its own token, issued for the holder of a platform token.
const rebalancer = createRebalancerClient({ baseUrl });
const { data: exchanged } = await rebalancer.GET('/rebalancer/v1/admin/token', { params: { header: { authorization: `Session ${token}` } } });
const modeling = createRebalancerClient({ baseUrl, token: exchanged!.eclipse_access_token });
const { data: models } = await modeling.GET('/rebalancer/v1/modeling/models', {});
console.log(`${models!.length} models: ${models!.map((model) => model.name).join(', ')}`);
