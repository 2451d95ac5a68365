const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Three significant figures at most below 1,000; whole numbers with grouping above. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return grouped.format(value);
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  if (magnitude === 0) return '0';
  return value.toPrecision(2);
}

/** A figure with its unit; a ratio (unit `×`) to three decimals, as its goals are set in hundredths. */
export function formatWithUnit(value: number, unit: string): string {
  return unit === '×' ? `${value.toFixed(3)}×` : `${formatNumber(value)} ${unit}`;
}
