/** Shapes exchanged with the Vigil HTTP API (see the server's OpenAPI document). */

export type JsonObject = { [key: string]: unknown };

/** Body of POST /events and one item of POST /events/batch. */
export interface EventBody {
  event: string;
  identity?: string;
  properties: JsonObject & { event_id: string; timestamp?: string };
}

/** An event as the caller described it (possibly invalid, so not necessarily an EventBody). */
export interface AttemptedEvent {
  event: string;
  identity?: string | undefined;
  properties: JsonObject;
}

/** application/problem+json */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: { path: string; message: string }[];
}

export type RiskTag = 'emulator' | 'rooted' | 'hooked' | 'vpn' | 'proxy' | 'tor' | 'new_device' | 'unregistered' | 'multi_user';

export interface Behavior {
  count: number | null;
  sum: number | null;
  unique: number | null;
  values: string[] | null;
}

export interface ScoreContribution {
  tag: string;
  weight: number;
  contribution: number;
}

export interface DeviceInfo {
  is_registered: boolean;
  is_trusted: boolean;
  registered_to: string | null;
  registered_at: string | null;
  role: string | null;
  metadata: JsonObject;
  age_days: number;
  is_new: boolean;
  model: string | null;
  os_version: string | null;
  status: 'unregistered' | 'active' | 'deactivated';
}

/** The 200 body of POST /events, as sent by the service. */
export interface InsightsData {
  event_id: string | null;
  device_id: string | null;
  handprint_id: string | null;
  /** Known tags are typed; the service may add new ones, so any string is accepted. */
  current_tags: (RiskTag | (string & {}))[];
  risk_score: number;
  score_breakdown: ScoreContribution[];
  device_id_details: { age: { days: number } } | null;
  behaviors: Record<string, Behavior>;
  device: DeviceInfo | null;
  email_intel: JsonObject | null;
  phone_intel: JsonObject | null;
  warnings: string[];
}

export type BatchItemResult = { status: number; insights: InsightsData } | { status: number; error: Problem };

export interface BatchResponse {
  results: BatchItemResult[];
}
