export const PARLANCE_VERSION = '0.1.0';
// The contract's feature level; clients choose request and response formats by it.
export const FEATURE_LEVEL = 496;
export const ZULIP_VERSION = `12.0-parlance-${PARLANCE_VERSION}`;
export const ZULIP_MERGE_BASE = ZULIP_VERSION;
