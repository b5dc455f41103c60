// `lamis migrate`: apply pending storage migrations and exit.
import type { Command } from './platform/command.ts';
import { migrate } from './platform/db/migrate.ts';
import { openDatabase } from './platform/db/database.ts';
import { MIGRATIONS } from './migrations.ts';

export const migrateCommand: Command = {
  usesSettings: true,
  async run({ config }) {
    const database = openDatabase(config);
    try {
      const applied = await migrate(database.db, database.dialect, MIGRATIONS);
      console.log(applied.length ? `Applied ${applied.join(', ')} to ${database.dialect} (${database.location}).` : `Nothing to apply: ${database.dialect} (${database.location}) is up to date.`);
      return 0;
    } finally {
      await database.close();
    }
  },
};
