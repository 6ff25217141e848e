import type * as React from 'react';
import { cn } from '@/lib/utils';

export function Label({ className, ...props }: React.ComponentProps<'label'>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: the caller names the control with htmlFor or by nesting it
  return <label className={cn('text-sm font-medium leading-none', className)} {...props} />;
}
