'use client';
import { UserPlusIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { addUserAction, type RequestedChange } from '@/lib/actions/users';
import { ROLES } from '@/lib/roles';
import type { addUserSchema } from '@/lib/validation/users';

const addUserResolver = lazyZodResolver(() => import('@/lib/validation/users').then((m) => m.addUserSchema));

type FormValues = z.input<typeof addUserSchema>;

export interface AddUserDialogProps {
  /** Why nobody can be invited from this console (no mail server against a real service), if so. */
  invitationProblem: string | null;
}

export function AddUserDialog({ invitationProblem }: AddUserDialogProps) {
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<RequestedChange | null>(null);
  const [error, setError] = useState<string | null>(invitationProblem);
  const [pending, startTransition] = useTransition();
  const stepUp = useStepUp();
  const form = useForm<FormValues>({
    resolver: addUserResolver,
    defaultValues: { email: '', name: '', role: 'viewer' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    startTransition(async () => {
      const result = await stepUp.withStepUp(() => addUserAction(values));
      if (!result.ok) {
        setError(result.error);
        for (const [field, message] of Object.entries(result.fieldErrors ?? {})) {
          form.setError(field as keyof FormValues, { message });
        }
        return;
      }
      setOutcome(result.data);
      form.reset();
      toast.success('Waiting for a second admin');
    });
  });

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setOutcome(null);
      setError(invitationProblem);
    }
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogTrigger asChild>
        <Button>
          <UserPlusIcon aria-hidden />
          Add user
        </Button>
      </DialogTrigger>
      <DialogContent>
        {outcome?.kind === 'requested' ? (
          <>
            <DialogHeader>
              <DialogTitle>User requested</DialogTitle>
              <DialogDescription>
                The user is created when a second admin approves; the console then emails them an invitation
                link, where they choose their own password.
              </DialogDescription>
            </DialogHeader>
            <RequestedChangeNotice change={outcome} />
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>Add user</DialogTitle>
              <DialogDescription>
                A second admin approves the new user; then an invitation goes to their email address, where
                they choose their own password (and set up an authenticator app if their role approves).
                Nobody else sees it.
              </DialogDescription>
            </DialogHeader>
            {error ? (
              <Alert variant="destructive">
                <AlertDescription>{error}</AlertDescription>
              </Alert>
            ) : null}
            <Field id="new-user-email" label="Email" error={errors.email?.message}>
              <Input
                id="new-user-email"
                type="email"
                aria-invalid={Boolean(errors.email)}
                {...form.register('email')}
              />
            </Field>
            <Field id="new-user-name" label="Name" error={errors.name?.message}>
              <Input id="new-user-name" aria-invalid={Boolean(errors.name)} {...form.register('name')} />
            </Field>
            <Field id="new-user-role" label="Role" error={errors.role?.message}>
              <NativeSelect id="new-user-role" {...form.register('role')}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <DialogFooter>
              <Button type="submit" disabled={pending || Boolean(invitationProblem)}>
                Request user
              </Button>
            </DialogFooter>
          </form>
        )}
        {stepUp.dialog}
      </DialogContent>
    </Dialog>
  );
}
