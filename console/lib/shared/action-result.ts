/** What a console mutation tells the page: an expected refusal is data, shown next to the form. */
export interface ActionResult {
  ok: boolean;
  message: string;
  /** A secret shown once (a new key, token or password). */
  secret?: string;
  /** Changes on every answer, so the same message twice is still announced. */
  at: number;
}

export const idle: ActionResult = { ok: false, message: '', at: 0 };
