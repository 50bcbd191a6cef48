/** Ids are 32-bit integer columns on PostgreSQL: a larger number can name no record. */
export const MAX_ID = 2_147_483_647;

/** Whether a number can be the id of a stored record (services filter ids they look up with it). */
export const isStorableId = (id: number) => Number.isInteger(id) && id > 0 && id <= MAX_ID;
