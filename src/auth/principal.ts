/** Who makes an authenticated request, as the token resolves it. */
export interface Principal {
  userId: number;
  firmId: number;
  userName: string;
  kind: 'user' | 'api' | 'service';
  clientId: number | null;
  privileges: ReadonlySet<string>;
}
