'use client';
import { Button } from '@/components/ui/button';

export interface ReviewStepProps {
  /** The review panel: what approvers will see. */
  children: React.ReactNode;
  /** What creating the request does not do yet, e.g. "Nothing is sent when you create the request". */
  notice: string;
  createLabel: string;
  pending: boolean;
  onCreate: () => void;
  onEdit: () => void;
}

/** The review step of a request form: the review, then create or go back and edit. */
export function ReviewStep({ children, notice, createLabel, pending, onCreate, onEdit }: ReviewStepProps) {
  return (
    <div className="grid gap-3">
      {children}
      <p className="text-sm text-muted-foreground">{notice}: another person must approve it.</p>
      <div className="flex gap-2">
        <Button onClick={onCreate} disabled={pending}>
          {createLabel}
        </Button>
        <Button variant="outline" onClick={onEdit} disabled={pending}>
          Edit
        </Button>
      </div>
    </div>
  );
}
