// What the mails about events leave behind, kept for the events' retention: each member's lines (what
// they were told) and the digests sent. The lines of an event still open stay however old: its
// clearing is mailed to the members who heard of it.
import type { Database } from '../platform/db/database.ts';

/** Deletes the lines recorded before `before` of events no longer open, and the digests sent of hours before it. */
export async function pruneMailed(database: Database, before: Date): Promise<{ lines: number; digests: number }> {
  const cutoff = before.toISOString();
  const lines = await database.db.deleteFrom('notification_lines').where('recorded_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('events').select('events.id')
      .whereRef('events.id', '=', 'notification_lines.event_id').where('events.state', '=', 'open'))))
    .executeTakeFirst();
  const digests = await database.db.deleteFrom('notification_digests').where('sent_at', 'is not', null).where('hour', '<', cutoff).executeTakeFirst();
  return { lines: Number(lines.numDeletedRows), digests: Number(digests.numDeletedRows) };
}
