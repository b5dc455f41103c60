// Port weather thresholds set through the API. One row per owner and port: `owner` is the
// organisation of the key that set it, or `*` for the instance-wide row the instance's operators
// set (their keys belong to no organisation), which applies to every organisation that has not
// set its own. A null column means "not set here": the next layer down applies (instance-wide,
// then the default for the port's harbour size).
import type { Migration } from '../../platform/db/migrate.ts';

export const portWeatherMigration: Migration = {
  name: '0012_port_weather',
  async up(db) {
    await db.schema
      .createTable('port_weather_thresholds')
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('port_id', 'text', (c) => c.notNull())
      .addColumn('wind_kn', 'double precision')
      .addColumn('gust_kn', 'double precision')
      .addColumn('wave_height_m', 'double precision')
      .addColumn('visibility_m', 'double precision')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('port_weather_thresholds_pk', ['owner', 'port_id'])
      .execute();
  },
};
