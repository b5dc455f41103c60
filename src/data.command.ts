// `lamis import NAME FILE...` and `lamis data sync`: the reference data each feature imports from a
// file or downloads from its publisher, saved in the data folder, where the service reads it at
// its next start. Each feature lists its sources; these commands only dispatch and report.
import { UsageError, type Command } from './platform/command.ts';
import { DataError, download, DOWNLOAD_OPTIONS, downloadLimits, readDataFile, urlOption, type DataImporter, type DataReport, type SyncedSource } from './platform/data-sources.ts';
import { AIRPORT_SYNC_SOURCES, NAVDATA_IMPORTERS } from './aviation/index.ts';
import { PORT_IMPORTERS, PORT_SYNC_SOURCES } from './maritime/index.ts';

const IMPORTERS: readonly DataImporter[] = [...PORT_IMPORTERS, ...NAVDATA_IMPORTERS];
const SYNCED: readonly SyncedSource[] = [...PORT_SYNC_SOURCES, ...AIRPORT_SYNC_SOURCES];

function print(reports: DataReport[], json: boolean | string | undefined): void {
  if (json) console.log(JSON.stringify(reports.map((report) => report.json)));
  else console.log([...reports.map((report) => report.text), 'Restart the service to serve the new data.'].join('\n'));
}

export const importCommand: Command = {
  args: IMPORTERS.map((importer) => `${importer.name} ${importer.files}`).join(' | '),
  usesSettings: true,
  options: {
    json: { type: 'boolean', description: 'Print the report as JSON, every rejected row included' },
  },
  async run({ config, positionals, values }) {
    const [name, ...paths] = positionals;
    const importer = IMPORTERS.find((candidate) => candidate.name === name);
    const names = IMPORTERS.map((candidate) => candidate.name).join(', ');
    if (importer === undefined) {
      throw new UsageError(name === undefined ? `say what to import: ${importCommand.args}` : `unknown source "${name}": use one of ${names}`);
    }
    if (paths.length === 0) throw new UsageError(`give the ${importer.label} file to import`);
    if (importer.files === 'FILE' && paths.length > 1) throw new UsageError(`${importer.name} takes one file`);
    try {
      const files = await Promise.all(paths.map(readDataFile));
      print([await importer.import(config.dataDir, files)], values.json);
      return 0;
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      console.error(`lamis import: ${error.message}`);
      return 1;
    }
  },
};

export const dataCommand: Command = {
  args: 'sync',
  usesSettings: true,
  options: {
    ...Object.fromEntries(SYNCED.map((source) => [`${source.name}-url`, { type: 'string' as const, description: `Where to download the ${source.label} (default ${source.defaultUrl})` }])),
    ...DOWNLOAD_OPTIONS,
    json: { type: 'boolean', description: 'Print the reports as JSON, every rejected row included' },
  },
  async run({ config, positionals, values }) {
    const [action, ...rest] = positionals;
    if (action !== 'sync') throw new UsageError(action === undefined ? 'give a subcommand: sync' : `unknown subcommand "${action}": use sync`);
    if (rest.length > 0) throw new UsageError('sync takes no arguments');
    const limits = downloadLimits(values);
    const urls = SYNCED.map((source) => urlOption(values[`${source.name}-url`], source.defaultUrl, `${source.name}-url`));

    // Each source stands alone: one failing leaves the others' fresh data saved.
    const reports: DataReport[] = [];
    const failures: string[] = [];
    for (const [index, source] of SYNCED.entries()) {
      const url = urls[index]!;
      try {
        reports.push(await source.save(config.dataDir, await download(source.label, url, limits), url));
      } catch (error) {
        if (!(error instanceof DataError)) throw error;
        failures.push(error.message);
      }
    }
    if (reports.length > 0) print(reports, values.json);
    for (const failure of failures) console.error(`lamis data sync: ${failure}`);
    return failures.length === 0 ? 0 : 1;
  },
};
