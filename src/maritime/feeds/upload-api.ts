// POST /v3/maritime/ais/nmea: a station or a partner pushes raw sentences over HTTP. Uploads are one
// feed, `upload`, in the counts (the public /metrics and /readyz name no key), and each API key a
// sender of it with a pipeline of its own, so a multi-sentence message may span two uploads of the
// same key and never mixes with another key's.
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { textBodyRoutes } from '../../platform/http/schema.ts';
import { AIS_REJECT_REASONS, type AisPipelineCounts } from '../ais/index.ts';
import type { AisIngest } from '../vessels/ingest.ts';

export const UPLOAD_LIMIT_BYTES = 1024 * 1024;
const NMEA_TYPES = ['text/plain', 'application/x-nmea', 'application/octet-stream'];

const UploadResult = Type.Object({
  lines: Type.Integer({ description: 'Non-empty lines in the upload' }),
  accepted: Type.Integer({ description: 'Lines that are part of a decoded message' }),
  pending: Type.Integer({ description: 'Change in lines held as parts of multi-sentence messages waiting for their rest (negative when this upload completed parts sent before)' }),
  messages: Type.Integer({ description: 'AIS messages decoded' }),
  rejected: Type.Object(Object.fromEntries(AIS_REJECT_REASONS.map((reason) => [reason, Type.Integer()])), {
    description: 'Rejected lines by reason',
  }),
});

function snapshot(counts: AisPipelineCounts) {
  return { lines: counts.lines, accepted: counts.accepted, pending: counts.pending, messages: counts.messages, rejected: { ...counts.rejected } };
}

export function registerUploadRoute(app: App, ingest: AisIngest): void {
  textBodyRoutes(app, { types: NMEA_TYPES, bodyLimit: UPLOAD_LIMIT_BYTES }, (scope) => {
    scope.post('/v3/maritime/ais/nmea', {
      bodyLimit: UPLOAD_LIMIT_BYTES,
      schema: {
        summary: 'Upload raw AIS sentences (NMEA 0183)',
        description:
          'Body: `!AIVDM`/`!AIVDO` lines as `text/plain`, optionally with NMEA 4.10 tag blocks, CRLF or LF, up to 1 MiB. ' +
          'Decoded messages update vessel state with source `upload`. The answer counts what was accepted and why the rest was rejected.',
        tags: ['Vessels'],
        consumes: NMEA_TYPES,
        body: Type.String({ description: 'NMEA lines' }),
        response: { 200: UploadResult },
      },
    }, async (request) => {
      const lines = (request.body as string).split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
      // The feed's counts change only in this synchronous call, so the difference is this upload's.
      const before = snapshot(ingest.feedCounts('upload', 'upload'));
      ingest.lines('upload', 'upload', lines, Date.now(), request.principal!.key_id);
      const after = snapshot(ingest.feedCounts('upload', 'upload'));
      return {
        lines: after.lines - before.lines,
        accepted: after.accepted - before.accepted,
        pending: after.pending - before.pending,
        messages: after.messages - before.messages,
        rejected: Object.fromEntries(AIS_REJECT_REASONS.map((reason) => [reason, after.rejected[reason] - before.rejected[reason]])),
      };
    });
  });
}
