// The rows of `organisation_grants` (0013_organisation_grants): one per organisation that has had a
// grant; no row means the defaults.

/** `shared`: the organisation's keys may upload AIS, which every organisation then sees; `off`: they may not. */
export type AisUpload = 'shared' | 'off';

export interface OrganisationGrantsRow {
  org_id: string;
  ais_upload: AisUpload;
  /** The fraction (0 to 1) of an airport hour's arrival slots it may hold; null: the instance's share. */
  slot_share: number | null;
  updated_at: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    organisation_grants: OrganisationGrantsRow;
  }
}
