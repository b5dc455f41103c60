// An invitation link opened before its invitee could accept (no account yet, or the address not
// verified): kept in this browser so the sign-up can lead back to it.
const STORAGE_KEY = 'lamis.pending-invitation';

export interface PendingInvitation {
  token: string;
  organisation_name: string;
  email: string;
}

export function pendingInvitation(): PendingInvitation | null {
  try {
    return JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as PendingInvitation | null;
  } catch {
    return null;
  }
}

export function rememberInvitation(invitation: PendingInvitation): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(invitation));
}

export function forgetInvitation(): void {
  localStorage.removeItem(STORAGE_KEY);
}

export function invitationPath(token: string): string {
  return `/invitation?token=${encodeURIComponent(token)}`;
}
