// A vessel has one open port call at most: the partial index on open calls (0011_port_calls)
// becomes unique, so instances that read the same feed store one call, the first one's. Open
// calls a vessel already has besides its latest (stored twice before) end, unobserved, when the
// next one began.
import { sql } from 'kysely';
import type { Migration } from '../../platform/db/migrate.ts';

export const portCallOpenOnceMigration: Migration = {
  name: '0026_port_call_open_once',
  async up(db) {
    await sql`
      update port_calls set departure_observed = 0, departed_at = (
        select min(later.arrived_at) from port_calls later
        where later.mmsi = port_calls.mmsi and later.departed_at is null
          and (later.arrived_at > port_calls.arrived_at or (later.arrived_at = port_calls.arrived_at and later.id > port_calls.id)))
      where departed_at is null and exists (
        select 1 from port_calls later
        where later.mmsi = port_calls.mmsi and later.departed_at is null
          and (later.arrived_at > port_calls.arrived_at or (later.arrived_at = port_calls.arrived_at and later.id > port_calls.id)))
    `.execute(db);
    await db.schema.dropIndex('port_calls_open').execute();
    await db.schema.createIndex('port_calls_open').on('port_calls').column('mmsi').unique().where(sql.ref('departed_at'), 'is', null).execute();
  },
};
