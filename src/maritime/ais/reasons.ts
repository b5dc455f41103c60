// Why a line or message was not turned into a decoded AIS message. The set is fixed so that callers
// can pre-register one counter per reason (Prometheus labels, /readyz).

/**
 * - `empty`: blank line.
 * - `framing`: not a well-formed NMEA sentence: missing `!`/`$`, wrong field count, bad fragment
 *   numbers or channel, malformed tag block.
 * - `checksum`: the sentence's `*hh` or the tag block's checksum does not match.
 * - `not_ais`: a well-formed NMEA sentence that is not VDM/VDO (GPS sentences in a mixed feed).
 * - `invalid_payload`: payload characters outside the six-bit armour, or fill bits outside 0..5.
 * - `duplicate`: a fragment already held for a pending multi-sentence group.
 * - `incomplete_group`: fragments of a multi-sentence group that timed out, were evicted by the
 *   pending-group cap, or were superseded by a new group reusing the same key.
 * - `unknown_type`: a message type (or type 24 part number) this codec does not decode.
 * - `payload_too_short`: fewer bits than the message type needs.
 */
export type AisRejectReason =
  | 'empty'
  | 'framing'
  | 'checksum'
  | 'not_ais'
  | 'invalid_payload'
  | 'duplicate'
  | 'incomplete_group'
  | 'unknown_type'
  | 'payload_too_short';

export const AIS_REJECT_REASONS: readonly AisRejectReason[] = [
  'empty',
  'framing',
  'checksum',
  'not_ais',
  'invalid_payload',
  'duplicate',
  'incomplete_group',
  'unknown_type',
  'payload_too_short',
];
