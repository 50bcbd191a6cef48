/**
 * The registration types the platform knows, with stable ids for clients that key on them
 * (`GET /v1/Portfolio/Registrations/Types`). A registration's `type` is free text; one of these
 * names, matched without regard to case, gives it an id. The tax status says how gains are taxed.
 */
export const TAX_STATUSES = ['Taxable', 'TaxDeferred', 'TaxExempt'] as const;
export type TaxStatus = (typeof TAX_STATUSES)[number];

export interface RegistrationType {
  id: number;
  name: string;
  taxStatus: TaxStatus;
}

export const REGISTRATION_TYPES: readonly RegistrationType[] = [
  { id: 1, name: 'Individual', taxStatus: 'Taxable' },
  { id: 2, name: 'Joint', taxStatus: 'Taxable' },
  { id: 3, name: 'Revocable Trust', taxStatus: 'Taxable' },
  { id: 4, name: 'Irrevocable Trust', taxStatus: 'Taxable' },
  { id: 5, name: 'Corporate', taxStatus: 'Taxable' },
  { id: 6, name: 'Custodial', taxStatus: 'Taxable' },
  { id: 7, name: 'Traditional IRA', taxStatus: 'TaxDeferred' },
  { id: 8, name: 'Rollover IRA', taxStatus: 'TaxDeferred' },
  { id: 9, name: 'SEP IRA', taxStatus: 'TaxDeferred' },
  { id: 10, name: 'SIMPLE IRA', taxStatus: 'TaxDeferred' },
  { id: 11, name: '401k', taxStatus: 'TaxDeferred' },
  { id: 12, name: 'Roth IRA', taxStatus: 'TaxExempt' },
  { id: 13, name: 'Roth 401k', taxStatus: 'TaxExempt' },
  { id: 14, name: 'HSA', taxStatus: 'TaxExempt' },
  { id: 15, name: '529 Plan', taxStatus: 'TaxExempt' },
];

const byName = new Map(REGISTRATION_TYPES.map((t) => [t.name.toLowerCase(), t]));

export function registrationTypeOf(name: string): RegistrationType | undefined {
  return byName.get(name.trim().toLowerCase());
}

/** An account's tax status: its own when set, else its registration type's, else Taxable (docs/tax-aware.md). */
export function effectiveTaxStatus(stored: string | null, registrationType: string): TaxStatus {
  if (stored !== null && (TAX_STATUSES as readonly string[]).includes(stored)) return stored as TaxStatus;
  return registrationTypeOf(registrationType)?.taxStatus ?? 'Taxable';
}
