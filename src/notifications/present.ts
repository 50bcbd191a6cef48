import type { NotificationRow } from './repository.js';
import type { NotificationRead } from './schemas.js';

/** Where the platform is reached from outside: platform notifications link there. */
export interface Links {
  publicUrl: string;
  platformPrefix: string;
  rebalancerPrefix: string;
}

export const PLATFORM_APP_NAME = 'Platform';

/**
 * Platform notifications store their link as a `{base_url}` or `{rebalancer_base_url}` template,
 * since workers that write them do not know the public address; it is resolved when read or
 * pushed. Partner links are absolute http(s) URLs and never start with `{`.
 */
export function resolveLink(links: Links, url: string | null): string | null {
  if (url === null) return null;
  if (url.startsWith('{base_url}')) return `${links.publicUrl}${links.platformPrefix}${url.slice('{base_url}'.length)}`;
  if (url.startsWith('{rebalancer_base_url}')) return `${links.publicUrl}${links.rebalancerPrefix}${url.slice('{rebalancer_base_url}'.length)}`;
  return url;
}

export function presentNotification(links: Links, row: NotificationRow): NotificationRead {
  return {
    id: row.id,
    firmId: row.firm_id,
    partnerUserName: row.user_name,
    createdDate: row.created_at,
    subject: row.subject,
    body: row.body,
    url: resolveLink(links, row.url),
    status: row.status,
    partnerAppName: row.app_name ?? PLATFORM_APP_NAME,
    categoryName: row.category_name,
    integrationId: row.integration_id,
    actionName: row.action_name === 'download' ? 'download' : null,
  };
}
