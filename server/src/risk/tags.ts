/** Severity of each tag, as the README's tag table gives it. */
export type Severity = 'critical' | 'high' | 'medium';

/** Every tag Vigil answers; `bot` and `deactivated` are Vigil's additions to the common set. */
export const tagCatalog = {
  emulator: { severity: 'critical', meaning: 'Running on an emulator.' },
  rooted: { severity: 'critical', meaning: 'Root access detected.' },
  hooked: { severity: 'critical', meaning: 'Instrumentation framework detected.' },
  tor: { severity: 'critical', meaning: 'Anonymity-network connection.' },
  deactivated: { severity: 'critical', meaning: 'Device deactivated in the registry: to be blocked (Vigil addition).' },
  vpn: { severity: 'high', meaning: 'VPN connection.' },
  proxy: { severity: 'high', meaning: 'Proxy detected.' },
  multi_user: { severity: 'high', meaning: 'Device registered to multiple users.' },
  bot: { severity: 'high', meaning: 'Browser automation detected (Vigil addition).' },
  new_device: { severity: 'medium', meaning: 'Device younger than 24 hours.' },
  unregistered: { severity: 'medium', meaning: 'Device is not registered.' },
  device_key_mismatch: { severity: 'critical', meaning: 'Request for a device bound to a key, not signed by that key (Vigil addition).' },
} as const satisfies Record<string, { severity: Severity; meaning: string }>;

export type KnownTag = keyof typeof tagCatalog;

/** Custom tags from score rules have no catalog entry; they are treated as medium. */
export function severityOf(tag: string): Severity {
  return (tagCatalog as Record<string, { severity: Severity }>)[tag]?.severity ?? 'medium';
}
