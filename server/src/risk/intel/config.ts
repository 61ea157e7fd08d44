import { z } from 'zod';

const paths = z.union([
  z
    .string()
    .min(1)
    .transform((p) => [p]),
  z.array(z.string().min(1)),
]);
const urls = z.union([
  z
    .string()
    .url()
    .transform((u) => [u]),
  z.array(z.string().url()),
]);

/** Public sources `vigil intel update` downloads from when none are configured. */
export const DEFAULT_SOURCES = {
  tor_exit_list: ['https://check.torproject.org/torbulkexitlist'],
  vpn_ranges: [
    'https://raw.githubusercontent.com/X4BNet/lists_vpn/main/output/vpn/ipv4.txt',
    'https://raw.githubusercontent.com/X4BNet/lists_vpn/main/output/datacenter/ipv4.txt',
  ],
  proxy_list: ['https://raw.githubusercontent.com/TheSpeedX/PROXY-List/master/http.txt'],
} as const;

/**
 * `intel`: IP lists (file paths, relative to the config file) and where `vigil intel update` fetches them.
 * Each list may be one path or several (merged).
 */
export const intelConfigSchema = z
  .object({
    tor_exit_list: paths.default([]),
    vpn_ranges: paths.default([]),
    proxy_list: paths.default([]),
    /** How often the files are checked for changes (mtime and size); a changed file is reloaded in place. */
    reload_interval_seconds: z.number().min(0.05).max(86_400).default(10),
    sources: z.object({ tor_exit_list: urls.optional(), vpn_ranges: urls.optional(), proxy_list: urls.optional() }).strict().default({}),
  })
  .strict();

export type IntelConfig = z.infer<typeof intelConfigSchema>;
export type IntelListName = 'tor_exit_list' | 'vpn_ranges' | 'proxy_list';
