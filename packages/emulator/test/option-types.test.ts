import type { EmulatorLimits, EmulatorOptions, FaultRule } from '@dataworkz/emulator';
import { describe, expectTypeOf, it } from 'vitest';

// Options built from values that may be absent (environment variables, flags) type-check under
// `exactOptionalPropertyTypes`, as the repository compiles.
describe('option types', () => {
  it('every optional option accepts undefined', () => {
    const port: number | undefined = undefined;
    const options: EmulatorOptions = {
      port,
      host: undefined,
      data: undefined,
      cors: undefined,
      limits: undefined,
      embed: undefined,
    };
    const limits: EmulatorLimits = { maxBodyBytes: undefined, maxTextLength: undefined };
    const rule: FaultRule = { route: undefined, status: undefined, headers: undefined };
    expectTypeOf(options.port).toEqualTypeOf<number | undefined>();
    expectTypeOf(limits.maxBodyBytes).toEqualTypeOf<number | undefined>();
    expectTypeOf(rule.route).toEqualTypeOf<FaultRule['route']>();
  });
});
