// The ingest thread: a worker that runs one IngestCore on a database connection of its own. Its
// settings come as the first message (the thread may start before the service knows them:
// thread.ts); its events go to the serving thread as they are; a batch's rows are transferred, not
// copied.
import { parentPort } from 'node:worker_threads';
import { openDatabase, type DatabaseSettings } from '../../platform/db/database.ts';
import { IngestCore, type IngestCommand, type IngestEvent, type IngestSettings } from './core.ts';

/** What the ingest thread is given first: its database connection's settings and ingest's own. */
export interface IngestThreadSettings {
  database: DatabaseSettings;
  settings: IngestSettings;
}

const port = parentPort!;
const { database: databaseSettings, settings } = await new Promise<IngestThreadSettings>((resolve) => port.once('message', resolve));
const database = openDatabase(databaseSettings);
const emit = (event: IngestEvent) => port.postMessage(event, event.kind === 'batch' ? [event.rows.buffer as ArrayBuffer] : []);
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
try {
  const core = await IngestCore.open(database, settings, emit);
  port.on('message', (command: IngestCommand) => {
    if (command.kind !== 'stop') {
      core.command(command);
      return;
    }
    // The connection closes after the recorder's last write, before the answer.
    core.stop().then(() => database.close()).then(
      () => emit({ kind: 'reply', id: command.id }),
      (error: unknown) => emit({ kind: 'reply', id: command.id, error: errorText(error) }),
    );
  });
  emit({ kind: 'reply', id: 0, value: core.status() });
} catch (error) {
  await database.close().catch(() => undefined);
  emit({ kind: 'reply', id: 0, error: errorText(error) });
}
