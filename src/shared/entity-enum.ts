/** Spec 2.3: Registration = 6, Account = 7; the only two entity codes trade blocks accept. */
export const EntityEnum = { Registration: 6, Account: 7 } as const;
export type EntityCode = (typeof EntityEnum)[keyof typeof EntityEnum];
