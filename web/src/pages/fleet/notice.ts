// A sentence for the fleet list to show once after a page that changed the fleet sends the user
// back to it ("G-EUPT was added."). Kept in memory: the registration never goes into an address.
let pending: string | null = null;

export function leaveNotice(text: string): void {
  pending = text;
}

export function takeNotice(): string | null {
  const text = pending;
  pending = null;
  return text;
}
