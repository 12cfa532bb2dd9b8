// Usage and quotas in the team service: what `GET /v1/usage` adds for a tenant. Every
// field is optional in the answer, so the desktop's answer (all-time totals per task) is unchanged.
import { z } from 'zod';
import { Usage } from './entities';

/** The quotas a tenant has, listed once: the limits, the environment, the flags and this answer use it. */
/** `cost_per_month`: money per calendar month spent on models the operator offers (in their price's currency). */
export const quotaNames = ['max_concurrent_runs', 'tokens_per_month', 'cost_per_month', 'storage_bytes', 'upload_bytes', 'requests_per_minute'] as const;
export const QuotaName = z.enum(quotaNames);
export type QuotaName = z.infer<typeof QuotaName>;

/** A calendar month in UTC, as `?period=2026-11`: the year and the month are the two groups. */
export const USAGE_MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;
export const UsageMonth = z.string().regex(USAGE_MONTH_PATTERN, 'expected a month as YYYY-MM');

export const UsagePeriodInfo = z.object({
  /** `2026-11`. */
  label: z.string(),
  /** ms since the epoch, inclusive. */
  since: z.number().int(),
  /** ms since the epoch, exclusive: when the month's quota starts again. */
  until: z.number().int(),
});
export type UsagePeriodInfo = z.infer<typeof UsagePeriodInfo>;

export const UserUsage = Usage.extend({
  user_id: z.string(),
  upload_bytes: z.number().int().optional(),
  runs: z.number().int().optional(),
});
export type UserUsage = z.infer<typeof UserUsage>;

export const QuotaUsage = z.object({
  name: QuotaName,
  /** null: unlimited. A whole number but for cost_per_month (money). */
  limit: z.number().nullable(),
  /** The use compared with the limit now; null for limits per request (upload size, request rate). */
  used: z.number().nullable(),
});
export type QuotaUsage = z.infer<typeof QuotaUsage>;
