// POST /v3/maritime/ais/nmea: a station or a partner pushes raw sentences over HTTP. Uploads are one
// feed, `upload`, in the counts (the public /metrics and /readyz name no key), and each API key a
// sender of it with a pipeline of its own, so a multi-sentence message may span two uploads of the
// same key and never mixes with another key's.
//
// What is uploaded goes into the one vessel picture every organisation sees (positions, port calls,
// arrivals, the stream), so operators of the instance upload, and an organisation's production keys
// only once an operator has shared its uploads (`lamis org set-ais-upload`).
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { textBodyRoutes } from '../../platform/http/schema.ts';
import { AIS_REJECT_REASONS } from '../ais/index.ts';
import type { UploadCounts } from '../ingest/core.ts';

export const UPLOAD_LIMIT_BYTES = 1024 * 1024;
const NMEA_TYPES = ['text/plain', 'application/x-nmea', 'application/octet-stream'];

export const aisUploadForbidden = problemType({
  code: 'ais_upload_forbidden',
  status: 403,
  title: 'This API key may not upload AIS',
  description:
    'Uploaded AIS goes into the vessel picture every organisation sees. Operators of the instance may upload; an organisation\'s production keys ' +
    'only once an operator has shared its uploads (`lamis org set-ais-upload ORG shared`). `reason`: `not_shared` (ask an operator to share ' +
    'your organisation\'s uploads) or `development_key` (development keys do not upload).',
});

/** Whether an operator has shared the organisation's uploads with every organisation. */
export type UploadsShared = (orgId: string) => Promise<boolean>;

const UploadResult = Type.Object({
  lines: Type.Integer({ description: 'Non-empty lines in the upload' }),
  accepted: Type.Integer({ description: 'Lines that are part of a decoded message' }),
  pending: Type.Integer({ description: 'Change in lines held as parts of multi-sentence messages waiting for their rest (negative when this upload completed parts sent before)' }),
  messages: Type.Integer({ description: 'AIS messages decoded' }),
  rejected: Type.Object(Object.fromEntries(AIS_REJECT_REASONS.map((reason) => [reason, Type.Integer()])), {
    description: 'Rejected lines by reason',
  }),
});

/** Operators upload; an organisation's production key once its uploads are shared; any other key gets a 403. */
async function authoriseUpload(request: FastifyRequest, shared: UploadsShared): Promise<void> {
  const { admin, organisation_id, environment } = request.principal!;
  if (admin) return;
  if (environment !== 'production') {
    throw new ProblemError(aisUploadForbidden, 'Development keys do not upload AIS: what is uploaded, every organisation sees.', { extra: { reason: 'development_key' } });
  }
  if (organisation_id === null || !(await shared(organisation_id))) {
    throw new ProblemError(aisUploadForbidden,
      'What is uploaded goes into the vessel picture every organisation sees, so an operator of this instance must share your organisation\'s uploads first.',
      { extra: { reason: 'not_shared' } });
  }
}

/** Decodes an upload's lines as one `sender` of the upload feed; resolves once its changes are in the vessel state requests read. */
export type DecodeUpload = (body: string, sender: string) => Promise<UploadCounts>;

export function registerUploadRoute(app: App, upload: DecodeUpload, shared: UploadsShared): void {
  textBodyRoutes(app, { types: NMEA_TYPES, bodyLimit: UPLOAD_LIMIT_BYTES }, (scope) => {
    scope.post('/v3/maritime/ais/nmea', {
      bodyLimit: UPLOAD_LIMIT_BYTES,
      schema: {
        summary: 'Upload raw AIS sentences (NMEA 0183)',
        description:
          'Body: `!AIVDM`/`!AIVDO` lines as `text/plain`, optionally with NMEA 4.10 tag blocks, CRLF or LF, up to 1 MiB. ' +
          'Decoded messages update vessel state with source `upload`. The answer counts what was accepted and why the rest was rejected. ' +
          'Every organisation sees what is uploaded, so operators of the instance upload, and an organisation\'s production keys once an operator ' +
          'has shared its uploads (403 `ais_upload_forbidden` otherwise).',
        tags: ['Vessels'],
        consumes: NMEA_TYPES,
        body: Type.String({ description: 'NMEA lines' }),
        response: { 200: UploadResult },
      },
    }, async (request) => {
      await authoriseUpload(request, shared);
      return upload(request.body as string, request.principal!.key_id);
    });
  });
}
