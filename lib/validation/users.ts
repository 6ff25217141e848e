import { z } from 'zod';
import { USER_RESET_SCOPES } from '@/lib/approvals/configuration';
import { ROLES } from '@/lib/roles';
import { plainText } from './text';

const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Enter a valid email address' }));

const roleSchema = z.enum(ROLES, { message: 'Choose a role: admin, finance, support or viewer' });

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, { message: 'Enter your password' }).max(200),
});

const newPasswordSchema = z
  .string()
  .min(12, { message: 'Use at least 12 characters' })
  .max(200, { message: 'Use at most 200 characters' });

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, { message: 'Enter your current password' }),
    newPassword: newPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'The two passwords differ',
  })
  .refine((v) => v.newPassword !== v.currentPassword, {
    path: ['newPassword'],
    message: 'Choose a password different from the current one',
  });

export const addUserSchema = z.object({
  email: emailSchema,
  name: plainText().trim().min(1, { message: 'Enter a name' }).max(100),
  role: roleSchema,
});

export const changeRoleSchema = z.object({ userId: z.uuid({ message: 'Unknown user' }), role: roleSchema });
export const userIdSchema = z.object({ userId: z.uuid({ message: 'Unknown user' }) });

/** What a reset link replaces: the password, or the password and every second factor. */
export const resetLinkSchema = z.object({
  userId: z.uuid({ message: 'Unknown user' }),
  scope: z.enum(USER_RESET_SCOPES, { message: 'Choose what the link resets' }),
});

/** The invitation page's form: the token from the link, the password the person chooses, and (when their role
 * needs one) the authenticator app they enrol there with its first code. */
export const acceptInvitationSchema = z
  .object({
    token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { message: 'This link is not valid.' }),
    newPassword: newPasswordSchema,
    confirmPassword: z.string(),
    factorId: z.union([z.uuid(), z.literal('')]).default(''),
    code: z.string().trim().max(16).default(''),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'The two passwords differ',
  });
