'use client';
// One request flow for every operation that moves money or signs: fill in, review what the server says will
// happen, confirm. The form stays mounted while the review shows, so Back finds every value as it was left.
import type * as React from 'react';
import type { FieldValues } from 'react-hook-form';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { OperationReviewPanel } from './review-panels';
import type { OperationRequest } from './use-operation-request';

export interface RequestFlowProps<V extends FieldValues, I> {
  flow: OperationRequest<V, I>;
  /** The confirm button: "Create request", "Create swap request"... */
  confirmLabel: string;
  /** What creating the request does not do yet, e.g. "Nothing is sent when you create the request". */
  notice: string;
  /** The form (fill-in step). */
  children: React.ReactNode;
}

export function RequestFlow<V extends FieldValues, I>({
  flow,
  confirmLabel,
  notice,
  children,
}: RequestFlowProps<V, I>) {
  const { step } = flow;
  return (
    <div className="grid gap-4">
      <div hidden={step.kind === 'review'}>
        <div className="grid gap-4">
          {children}
          {flow.banner && step.kind === 'fill' ? (
            <Alert variant="destructive">
              <AlertDescription>{flow.banner}</AlertDescription>
            </Alert>
          ) : null}
        </div>
      </div>
      {step.kind === 'review' ? (
        <div className="grid gap-3">
          <OperationReviewPanel review={step.review} requiredApprovals={step.requiredApprovals} />
          {flow.banner ? (
            <Alert variant="destructive">
              <AlertDescription>{flow.banner}</AlertDescription>
            </Alert>
          ) : null}
          <p className="text-sm text-muted-foreground">{notice}: another person must approve it.</p>
          <div className="flex gap-2">
            <Button onClick={flow.confirm} disabled={flow.pending} aria-busy={flow.pending || undefined}>
              {confirmLabel}
            </Button>
            <Button variant="outline" onClick={flow.back} disabled={flow.pending}>
              Back to edit
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
