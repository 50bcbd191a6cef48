/**
 * Privileges named by spec section 5.6. Roles (per firm, table `roles` + `role_privileges`)
 * map to these strings; routes declare the one they need in `config.privilege`.
 */
export const Privilege = {
  PortfolioRead: 'portfolio.read',
  PortfolioEdit: 'portfolio.edit',
  TradeBlockAdd: 'tradeBlock.add',
  TradeBlockUpdate: 'tradeBlock.update',
  TradeBlockDelete: 'tradeBlock.delete',
  PlatformAdmin: 'platform.admin',
  RebalancerService: 'rebalancer.service',
} as const;

export type PrivilegeName = (typeof Privilege)[keyof typeof Privilege];

export const ALL_PRIVILEGES: PrivilegeName[] = Object.values(Privilege);

/** The roles every new firm starts with; a firm may add its own. */
export const DEFAULT_ROLES: Record<string, PrivilegeName[]> = {
  Administrator: ALL_PRIVILEGES.filter((p) => p !== Privilege.RebalancerService),
  Advisor: [
    Privilege.PortfolioRead,
    Privilege.PortfolioEdit,
    Privilege.TradeBlockAdd,
    Privilege.TradeBlockUpdate,
    Privilege.TradeBlockDelete,
  ],
  'Read Only': [Privilege.PortfolioRead],
  'API Integration': [Privilege.PortfolioRead, Privilege.PortfolioEdit],
  'Rebalancer Service': [Privilege.PortfolioRead, Privilege.PortfolioEdit, Privilege.RebalancerService],
};
