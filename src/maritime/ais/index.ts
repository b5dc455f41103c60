// Public surface of the AIS codec.
export { AisPipeline } from './pipeline.ts';
export type { AisPipelineCounts, AisPipelineMessage, AisPipelineOptions } from './pipeline.ts';
export { AisAssembler } from './assembler.ts';
export type { AssembledPayload, AssemblerOptions, AssemblyResult, DroppedGroup } from './assembler.ts';
export { buildAisSentences, checksumHex, formatTagBlock, nmeaChecksum, parseAisSentence } from './nmea.ts';
export type { AisSentence, FrameResult, SentenceOptions, TagBlock, TagBlockGroup, TagBlockOptions } from './nmea.ts';
export { decodeAisPayload, isAuxiliaryMmsi } from './decode.ts';
export type { AisDecodeResult } from './decode.ts';
export { encodeAisPayload, encodeAisSentences, rawLongRangePosition, rawPosition } from './encode.ts';
export type { EncodedPayload } from './encode.ts';
export { aidTypeText, epfdText, navStatusText, shipTypeText } from './codes.ts';
export { AIS_REJECT_REASONS } from './reasons.ts';
export type { AisRejectReason } from './reasons.ts';
export { SixBitReader, SixBitWriter } from './sixbit.ts';
export { SUPPORTED_AIS_TYPES } from './types.ts';
export type * from './types.ts';
