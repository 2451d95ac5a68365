import { arch, availableParallelism, cpus, platform, totalmem } from 'node:os';

/** One line naming the hardware the figures were taken on (each table names its Node version). */
export function machineLine(): string {
  const cpu = cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  const memoryGiB = (totalmem() / 1024 ** 3).toFixed(1);
  return `Machine: ${cpu}, ${availableParallelism()} cores, ${memoryGiB} GiB memory, ${platform()} ${arch()}`;
}
