/** The five behaviors of the history and storage benchmarks: counts, a sum and uniques over 10 min to 7 days. */
export const HISTORY_BEHAVIORS = [
  { name: 'tx_count_1h', group_by: 'identity', operation: 'count', window_duration_seconds: 3600, filters: ['transfer'] },
  { name: 'tx_sum_24h', group_by: 'identity', operation: 'sum', field: 'properties.amount', window_duration_seconds: 86400, filters: ['transfer'] },
  { name: 'events_per_device_1h', group_by: 'device_id', operation: 'count', window_duration_seconds: 3600 },
  { name: 'ips_per_identity_24h', group_by: 'identity', operation: 'unique', field: 'ip_address', window_duration_seconds: 86400 },
  {
    name: 'recipients_7d',
    group_by: 'identity',
    operation: 'unique',
    field: 'properties.recipient',
    window_duration_seconds: 604800,
    filters: ['transfer'],
    return_values: true,
  },
];
