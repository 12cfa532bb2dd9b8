// Number and time formatting shared by the task list, chat footers and the files panel.

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

/** A bare amount, for totals that may mix currencies. */
export function formatCost(cost: number): string {
  if (cost === 0) return '0';
  if (cost < 0.01) return cost.toFixed(4);
  return cost.toFixed(2);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A run's length in the screen's units ("2m 05s", "2分05秒"): `t` words it from the `duration` strings. */
export function formatDuration(ms: number, t: (key: string, values: Record<string, string>) => string): string {
  if (ms < 1000) return t('duration.ms', { ms: String(Math.round(ms)) });
  const seconds = ms / 1000;
  if (seconds < 60) return t('duration.seconds', { seconds: seconds.toFixed(1) });
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return t('duration.minutes', { minutes: String(minutes), seconds: String(whole % 60).padStart(2, '0') });
  return t('duration.hours', { hours: String(Math.floor(minutes / 60)), minutes: String(minutes % 60).padStart(2, '0') });
}

/** Timestamps are epoch milliseconds; values that can only be seconds are scaled up. */
export function toDate(timestamp: number): Date {
  return new Date(timestamp < 100_000_000_000 ? timestamp * 1000 : timestamp);
}

export function formatDateTime(timestamp: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(toDate(timestamp));
}

export function formatDate(timestamp: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(toDate(timestamp));
}

/**
 * A run's cost in its profile's currency, localized ("$0.0012", "¥0.35", "US$0.0012" in Chinese);
 * null when the profile sets no price (the caller says so instead of showing a false 0).
 */
export function formatMoney(cost: number, price: { input: number; output: number; currency?: string } | undefined, locale: string): string | null {
  if (!price) return formatCost(cost);
  if (price.input === 0 && price.output === 0) return null;
  const digits = cost !== 0 && cost < 0.01 ? 4 : 2;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: price.currency ?? 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(cost);
  } catch {
    // An unknown currency code: the amount and the code as written in the profile.
    return `${formatCost(cost)} ${price.currency ?? ''}`.trim();
  }
}

/**
 * A model's price per million tokens in its currency, localized ("$0.14", "¥0.80", "US$0.435" in
 * Chinese), with up to four decimals as price lists give them.
 */
export function formatUnitPrice(amount: number, currency: string | undefined, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: currency ?? 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(amount);
  } catch {
    return `${amount} ${currency ?? ''}`.trim();
  }
}

/**
 * A task's cost in the currency of the model it runs on (its own, else the default); null when that
 * model is unknown or sets no price: a bare amount would not say which money it is.
 */
export function formatTaskCost(
  task: { cost: number; model: string | null },
  profiles: readonly { id: string; price: { input: number; output: number; currency?: string } }[],
  defaultModel: string | null,
  locale: string,
): string | null {
  const price = profiles.find((p) => p.id === (task.model ?? defaultModel))?.price;
  return price ? formatMoney(task.cost, price, locale) : null;
}

/**
 * The cost of all tasks together, in the one currency every priced model uses; null when no model
 * sets a price or the models' currencies differ (the total would add up different money).
 */
export function formatTotalCost(cost: number, profiles: readonly { price: { input: number; output: number; currency?: string } }[], locale: string): string | null {
  const priced = profiles.map((p) => p.price).filter((price) => price.input > 0 || price.output > 0);
  if (priced.length === 0) return null;
  const currencies = new Set(priced.map((price) => price.currency ?? 'USD'));
  return currencies.size === 1 ? formatMoney(cost, priced[0], locale) : null;
}

/** A number with the locale's grouping ("12,345" / "12,345"; "12.345" in German). */
export function formatNumber(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}
