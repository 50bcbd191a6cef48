import { validationError } from '../shared/errors.js';
import type { AuthRepository } from './repository.js';

export interface BasicLoginSetting {
  /** Whether the firm's API and service users may log in with Basic credentials alone. */
  enabled: boolean;
  /** The partner app such logins are issued through; null while disabled. */
  partnerAppId: number | null;
  partnerAppName: string | null;
}

/**
 * The firm setting for Basic-only login: off by default (section 5.5 asks for client_id and client_secret);
 * on, the source system's clients log in unmodified through the firm's chosen partner app.
 */
export class BasicLoginSettings {
  constructor(private readonly repository: AuthRepository) {}

  async get(firmId: number): Promise<BasicLoginSetting> {
    const row = await this.repository.basicLoginSettingOf(firmId);
    // A revoked app switches the setting off in effect; say so rather than show a dead app.
    const live = row.basic_login_app_id !== null && row.app_active === 1;
    return { enabled: live, partnerAppId: live ? row.basic_login_app_id : null, partnerAppName: live ? row.app_name : null };
  }

  /** Without `partnerAppId`, enabling picks the firm's default partner app: its oldest active one. */
  async set(firmId: number, input: { enabled: boolean; partnerAppId?: number }): Promise<BasicLoginSetting> {
    if (!input.enabled) {
      if (input.partnerAppId !== undefined) throw validationError('partnerAppId', 'must be omitted when enabled is false');
      await this.repository.setBasicLoginApp(firmId, null);
      return this.get(firmId);
    }
    const apps = await this.repository.activePartnerAppsOf(firmId);
    if (input.partnerAppId !== undefined && !apps.some((a) => a.id === input.partnerAppId)) {
      throw validationError('partnerAppId', `partner app ${input.partnerAppId} is not an active partner app of this firm`);
    }
    const appId = input.partnerAppId ?? apps[0]?.id;
    if (appId === undefined) throw validationError('enabled', 'the firm has no active partner app to issue Basic-only logins through');
    await this.repository.setBasicLoginApp(firmId, appId);
    return this.get(firmId);
  }
}
