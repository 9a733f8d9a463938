/** Who a request acts for: a workspace, through one of its API keys (or a session made from one). */
export interface Principal {
  workspaceId: string;
  keyId: string;
}
