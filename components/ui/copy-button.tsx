'use client';
import { CheckIcon, CopyIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/components/ui/toast';
import { Button } from './button';

export interface CopyButtonProps {
  value: string;
  /** The button's accessible name and tooltip, naming what it copies: "Copy address". */
  label: string;
  className?: string;
}

/** An icon button that copies a value and says so (toast and a check mark). */
export function CopyButton({ value, label, className }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      className={className ?? 'size-7'}
      aria-label={label}
      title={label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          toast.success('Copied');
          setTimeout(() => setCopied(false), 1500);
        } catch {
          toast.error('Could not copy: select the text and copy it by hand.');
        }
      }}
    >
      {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
    </Button>
  );
}
