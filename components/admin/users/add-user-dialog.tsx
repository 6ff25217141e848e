'use client';
import { UserPlusIcon } from 'lucide-react';
import { useState } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { FormDialog } from '@/components/forms/form-dialog';
import { useActionForm } from '@/components/forms/use-action-form';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { addUserAction, type RequestedChange } from '@/lib/actions/users';
import { ROLES } from '@/lib/roles';

const loadAddUserSchema = () => import('@/lib/validation/users').then((m) => m.addUserSchema);

export interface AddUserDialogProps {
  /** Why nobody can be invited from this console (no mail server against a real service), if so. */
  invitationProblem: string | null;
}

export function AddUserDialog({ invitationProblem }: AddUserDialogProps) {
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<RequestedChange | null>(null);
  const stepUp = useStepUp();
  const { form, onSubmit, pending, banner, setBanner } = useActionForm(
    (values) => stepUp.withStepUp(() => addUserAction(values)),
    {
      schema: loadAddUserSchema,
      defaultValues: { email: '', name: '', role: 'viewer' },
      initialBanner: invitationProblem,
      onSuccess: (data) => {
        setOutcome(data);
        form.reset();
        toast.success('Waiting for a second admin');
      },
    },
  );
  const { errors } = form.formState;

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setOutcome(null);
      setBanner(invitationProblem);
    }
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={close}
      trigger={
        <Button>
          <UserPlusIcon aria-hidden />
          Add user
        </Button>
      }
      title="Add user"
      description="A second admin approves the new user; then an invitation goes to their email address, where they choose their own password (and set up an authenticator app if their role approves). Nobody else sees it."
      banner={banner}
      onSubmit={onSubmit}
      submitLabel="Request user"
      pending={pending}
      submitDisabled={Boolean(invitationProblem)}
      done={
        outcome?.kind === 'requested'
          ? {
              title: 'User requested',
              description:
                'The user is created when a second admin approves; the console then emails them an invitation link, where they choose their own password.',
              content: <RequestedChangeNotice change={outcome} />,
              onDone: () => close(false),
            }
          : null
      }
      after={stepUp.dialog}
    >
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
    </FormDialog>
  );
}
