// The clusters of port areas in storage (table in areas.table.ts): all read at start, the changed
// ones written in batches, the forgotten ones deleted.
import type { Database } from '../../platform/db/database.ts';
import type { ClusterKind, StopCluster } from './areas.ts';

export class StopClusterStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** Every cluster seen at or after `sinceIso`. */
  async all(sinceIso: string): Promise<StopCluster[]> {
    const rows = await this.#database.db.selectFrom('port_stop_clusters').selectAll().where('last_seen', '>=', sinceIso).orderBy('id').execute();
    return rows.map((row) => ({ ...row, kind: row.kind as ClusterKind, stops: Number(row.stops) }));
  }

  async save(clusters: readonly StopCluster[]): Promise<void> {
    if (clusters.length === 0) return;
    await this.#database.db.transaction().execute(async (trx) => {
      for (const cluster of clusters) {
        await trx.insertInto('port_stop_clusters').values({ ...cluster })
          .onConflict((oc) => oc.column('id').doUpdateSet({
            lat: cluster.lat, lon: cluster.lon, radius_nm: cluster.radius_nm, stops: cluster.stops, last_seen: cluster.last_seen,
          }))
          .execute();
      }
    });
  }

  async forget(beforeIso: string): Promise<void> {
    await this.#database.db.deleteFrom('port_stop_clusters').where('last_seen', '<', beforeIso).execute();
  }
}
