import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazyZodResolver } from './lazy-zod-resolver';

const schema = z.object({ email: z.string().email('Enter an email address') });
const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe('lazyZodResolver', () => {
  it('answers as zodResolver does, loading the schema once for every validation', async () => {
    const load = vi.fn(async () => schema);
    const resolver = lazyZodResolver(load);
    const bad = await resolver({ email: 'nope' }, undefined, options);
    expect(bad.errors.email?.message).toBe('Enter an email address');
    const good = await resolver({ email: 'a@example.com' }, undefined, options);
    expect(good.errors).toEqual({});
    expect(good.values).toEqual({ email: 'a@example.com' });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads again at the next validation when a load failed', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('chunk lost')).mockResolvedValue(schema);
    const resolver = lazyZodResolver(load);
    await expect(resolver({ email: 'nope' }, undefined, options)).rejects.toThrow('chunk lost');
    const bad = await resolver({ email: 'nope' }, undefined, options);
    expect(bad.errors.email?.message).toBe('Enter an email address');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
