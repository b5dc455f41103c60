// What the AIS stream protocol allows: the subscription limits and the error codes it answers with.
// The schemas (stream.schemas.ts) and the reading of messages (protocol.ts) both use them.

export const LIMITS = {
  minUpdateIntervalSec: 1,
  defaultUpdateIntervalSec: 5,
  maxUpdateIntervalSec: 3600,
  /** Boxes in `bbox` and `bboxes` together. */
  maxBoxes: 16,
  /** Entries in each of `mmsi`, `imo`, `flags` and `vesselTypes`. */
  maxListItems: 1000,
} as const;

export const ERROR_CODES = ['invalid_json', 'invalid_message', 'unknown_type', 'binary_frame', 'invalid_subscription', 'already_authenticated'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
