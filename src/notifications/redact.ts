/**
 * A webhook guid is a capability (with the partner's credentials it reads a user's notifications),
 * so request logs show only its first 8 characters.
 */
export const maskWebhookGuids = (path: string): string =>
  path.replace(/(\/Notify\/Users\/)([^/?#]{8})[^/?#]*/gi, '$1$2…');
