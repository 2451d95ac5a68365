import { startEmulator } from '@dataworkz/emulator';
import { describe, expect, it } from 'vitest';

describe('limits', () => {
  it.each([
    [{ maxBodyBytes: -1 }, /'maxBodyBytes' must be a positive integer/],
    [{ maxTextLength: 1.5 }, /'maxTextLength' must be a positive integer/],
    [{ maxTasks: Number.NaN }, /'maxTasks' must be a positive integer/],
    [{ maxBodyBites: 10 }, /Unknown limit 'maxBodyBites'/],
  ])('refuses %j at start, naming the field', async (limits, message) => {
    await expect(startEmulator({ limits: limits as never })).rejects.toThrow(message);
  });
});
